/**
 * Whether a tool call acts or is cancelled, decided once for every instance (docs/agents.md#sessions). A client's
 * `notifications/cancelled` may reach one instance while the call it names runs on another, which hears of it over
 * the event bus a moment later (relay.ts); a call that acts in that moment makes the order its client was told was
 * cancelled. So the two sides claim the request's one record, and the first claim wins:
 *
 * - the cancel, before its POST is answered: taken unless the call already acts; only a taken cancel is relayed;
 * - the call, right before it creates or pays: it acts unless a cancel was taken, and then ends as cancelled.
 *
 * In Redis when REDIS_URL is set (`SET NX`: one record, one winner, whichever instance asks); in memory otherwise
 * (one instance). A record outlives any call that could still act (a question waits at most five minutes). MCP lets
 * a client use a request id once in a session, so a cancel of a request that had already ended claims nothing else.
 */
import type { Redis } from 'ioredis';
import type { RequestId } from '@modelcontextprotocol/sdk/types.js';
import { RedisClient } from '../src/kernel/drivers.ts';
import { closeRedis, REDIS_COMMAND_TIMEOUT_MS } from '../src/kernel/redis-connection.ts';
import { sha256Hex } from '../src/kernel/tokens.ts';

export interface CallClaims {
  /** The client cancelled `requestId` of its session: true when taken (the call had not begun to act). */
  cancel(sessionKey: string, requestId: RequestId): Promise<boolean>;
  /** The call serving `requestId` is about to act: true when it may (no cancel was taken). */
  act(sessionKey: string, requestId: RequestId): Promise<boolean>;
  dispose(): Promise<void>;
}

type Claim = 'cancelled' | 'acting';

/** A record's lifetime: longer than a call that waits out its question (five minutes) and then acts. */
export const CLAIM_TTL_SECONDS = 15 * 60;
/** The memory store's bound: past it, the oldest records go first (a client posting cancels for ids it never used). */
export const MAX_MEMORY_CLAIMS = 100_000;

/** The record's name: the request id as JSON (7 and "7" are two requests), a long one hashed. */
function recordName(sessionKey: string, requestId: RequestId): string {
  const id = JSON.stringify(requestId);
  return `${sessionKey}:${id.length > 80 ? sha256Hex(id) : id}`;
}

export function createCallClaims(options: { redisUrl: string | null; prefix: string }): CallClaims {
  const store = options.redisUrl ? redisClaims(options.redisUrl, `${options.prefix}mcp:c:`) : memoryClaims();
  return {
    // A second cancel of a taken one is taken too: the relay repeats it harmlessly.
    cancel: async (sessionKey, requestId) => (await store.claim(recordName(sessionKey, requestId), 'cancelled')) === 'cancelled',
    act: async (sessionKey, requestId) => (await store.claim(recordName(sessionKey, requestId), 'acting')) === 'acting',
    dispose: () => store.dispose(),
  };
}

/** Records `claim` unless the record holds one already; answers what the record holds now. */
interface ClaimStore {
  claim(name: string, claim: Claim): Promise<Claim>;
  dispose(): Promise<void>;
}

function redisClaims(url: string, prefix: string): ClaimStore {
  // Bounded as the session store's: a silent Redis fails the call rather than holding it.
  const redis: Redis = new (RedisClient())(url, { maxRetriesPerRequest: 1, commandTimeout: REDIS_COMMAND_TIMEOUT_MS });
  redis.on('error', () => {}); // ioredis reconnects; /ready reports Redis through the bus and the limiter
  const claim = async (name: string, wanted: Claim): Promise<Claim> => {
    if ((await redis.set(prefix + name, wanted, 'EX', CLAIM_TTL_SECONDS, 'NX')) === 'OK') return wanted;
    // Taken before: by the other side, or by this side once more. A record never changes once written; gone, it
    // expired in between, and the claim is tried again.
    return ((await redis.get(prefix + name)) as Claim | null) ?? claim(name, wanted);
  };
  return { claim, dispose: () => closeRedis(redis) };
}

function memoryClaims(): ClaimStore {
  // In the order written: the expired and, past the bound, the oldest are at the front.
  const records = new Map<string, { claim: Claim; until: number }>();
  const forgetOld = (now: number) => {
    for (const [name, record] of records) {
      if (record.until > now && records.size < MAX_MEMORY_CLAIMS) return;
      records.delete(name);
    }
  };
  return {
    async claim(name, claim) {
      const now = Date.now();
      forgetOld(now);
      const held = records.get(name);
      if (held) return held.claim;
      records.set(name, { claim, until: now + CLAIM_TTL_SECONDS * 1000 });
      return claim;
    },
    async dispose() {
      records.clear();
    },
  };
}
