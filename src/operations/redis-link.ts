/**
 * What an operator sees of Redis going away and coming back (docs/operations.md#when-redis-goes-away): before, nothing
 * at all. Every instance goes on serving while Redis is away (limits counted in memory, events between instances
 * lost), so nothing failed loudly enough to notice: now one `warn` line when the event bus's connections are lost
 * and one `info` line when they are back, never one per reconnection attempt, and the gauge `sleeve_redis_up`.
 *
 * The process's one gateway is watched (main.ts): the gauge is a metric of the process, added to the registry every
 * gateway made afterwards lists, so it is set up before the gateway and told of its link once the gateway exists.
 */
import { Gauge } from 'prom-client';
import type { Logger } from '../kernel/logger.ts';
import type { RedisLink } from '../kernel/redis-connection.ts';
import { processMetrics } from './metrics.ts';

/** How long a start waits for Redis before it says the connection is lost. */
const START_GRACE_MS = 2_000;

export interface RedisLinkReport {
  /** Follows `link` from now on: logs each loss and return, and the gauge reads it. */
  watch(link: RedisLink | undefined): void;
}

/** `metrics`: false with METRICS=off, which counts nothing (and so sets up no process metrics for this gauge). */
export function reportRedisLink(logger: Logger, { metrics }: { metrics: boolean }): RedisLinkReport {
  let watched: RedisLink | undefined;
  if (metrics) registerGauge(() => watched);
  return {
    watch(link) {
      if (!link) return;
      watched = link;
      // Only a loss is told as one, and a return only after a loss told: the first connection at start is neither.
      let lostAt: number | null = null;
      const lost = () => {
        lostAt = Date.now();
        // No URL: it may hold a password.
        // `failure`: a code, never the message (a host, a user): WRONGPASS says at once it is no outage.
        logger.warn('redis connection lost; events between instances are lost and limits counted per instance until it is back', { failure: link.failure });
      };
      // Not yet connected at start: a loss only if it stays so (the connections may still be finishing their handshake).
      const unreached = link.up ? undefined : setTimeout(() => !link.up && lostAt === null && lost(), START_GRACE_MS).unref();
      link.onChange((up) => {
        clearTimeout(unreached);
        if (!up) return lost();
        if (lostAt === null) return;
        logger.info('redis connection back', { awaySeconds: Math.round((Date.now() - lostAt) / 100) / 10 });
        lostAt = null;
      });
    },
  };
}

/** `sleeve_redis_up` in the process's registry, read at scrape from the link watched by then (0 before any). */
function registerGauge(link: () => RedisLink | undefined): void {
  new Gauge({
    name: 'sleeve_redis_up',
    help: "1 while this instance's connections to Redis (REDIS_URL) are up, 0 while they are lost or not yet made.",
    registers: [processMetrics()],
    collect() {
      this.set(link()?.up ? 1 : 0);
    },
  });
}
