/**
 * One JSON line per request and its request id (docs/operations.md#request-logs, CONTRACT §7), and the HTTP
 * histogram, both written when the answer is known: request id, method, route template, status, duration in
 * milliseconds, client address.
 *
 * The request id: the client's `x-request-id` when it is a short printable token — 1 to 128 characters of
 * `A-Z a-z 0-9 . _ : -` that the log scrubber leaves alone (a card number is no request id, and the id is written on
 * every line; a UUID is fine) — and otherwise one made here: this process's random prefix and a counter, unique across instances
 * and cheap (no system call, no UUID per request). The server echoes it in `x-request-id` on every answer.
 *
 * Every field of the line is bounded by construction (a route template, not the path: no order number, no token
 * from a query string), so the line is safe whatever the request held.
 */
import { randomBytes } from 'node:crypto';
import { scrub } from '../kernel/card-number.ts';
import type { Logger } from '../kernel/logger.ts';
import type { RequestLine } from '../kernel/request-line-bytes.ts';
import type { GatewayMetrics } from './metrics.ts';

/** The route label of a path no route has (a 404), so that unknown paths add no series. */
export const UNMATCHED_ROUTE = 'unmatched';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/u;

const prefix = randomBytes(6).toString('base64url') + '-';
let counter = 0;

/** The client's id when acceptable (above), else a new one. */
export function requestIdOf(header: string | undefined | null): string {
  if (header !== undefined && header !== null && REQUEST_ID.test(header) && !cardLike(header)) return header;
  return prefix + (++counter).toString(36);
}

/**
 * Whether the id could hold a card number: the scrubber's test, with `.`, `_` and `:` read as the spaces and hyphens it
 * knows (4242.4242.4242.4242 passed as an id, and was written on every line the request caused).
 */
const cardLike = (id: string): boolean => {
  const grouped = id.replace(/[._:]/gu, '-');
  return scrub(grouped) !== grouped;
};

/** A method outside these (the Fetch API takes any token, digits included) is written as OTHER. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']);

export class RequestLog {
  constructor(
    private readonly logger: Logger,
    private readonly metrics: GatewayMetrics,
  ) {}

  /** The request `requestId` was answered `status` after `startedAt` (performance.now()). */
  finish(requestId: string, method: string, route: string, status: number, startedAt: number, client: string): void {
    const ms = performance.now() - startedAt;
    this.metrics.request(route, method, status, ms / 1000);
    // Fields in the order they are written (request(), and JSON.stringify for a logger without it).
    const line: RequestLine = { requestId, method: METHODS.has(method) ? method : 'OTHER', route, status, durationMs: Math.round(ms * 1000) / 1000, client };
    if (this.logger.request) this.logger.request(line);
    else this.logger.info('request', line as unknown as Record<string, unknown>);
  }
}
