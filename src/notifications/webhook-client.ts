/**
 * One HTTP attempt (document 2 §1, docs/notifications.md#delivery-and-retries): POST the body to MERCHANT_ENDPOINT + path with
 * `content-type` and `accept: application/json`, the gateway's `user-agent` and the signature headers, and report
 * what came back. The timeout is a timer on the injected clock, so tests move time instead of waiting 10 s. Never throws.
 */
import { Agent as HttpAgent, request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { within } from '../kernel/bounded-wait.ts';
import type { Clock } from '../kernel/clock.ts';
import { deferredOrigin, inSpan, SpanKind, SpanStatusCode, tracingOn, withTraceContext } from '../operations/tracing.ts';

export const DELIVERY_TIMEOUT_MS = 10_000;
/** The stored excerpt of a merchant's answer (outbox_attempts.response_excerpt is varchar(1000)). */
const EXCERPT_CHARS = 500;
/** The most of an answer's body read: enough for EXCERPT_CHARS characters of UTF-8 (at most 4 bytes each). */
const EXCERPT_BYTES = EXCERPT_CHARS * 4;
/** The most of a redirect's `Location` recorded: enough to tell http from https, www or not, a trailing slash. */
const LOCATION_CHARS = 200;
/**
 * Fixed, and without the package's version: no source reads package.json (its path differs between src/ and the
 * build's dist/src/). Receivers' WAFs and CDNs block or challenge requests that carry no User-Agent at all.
 */
const USER_AGENT = 'Sleeve-Gateway-Webhooks/1';

export interface DeliveryResult {
  statusCode: number | null;
  excerpt: string | null;
  error: string | null;
  /** Wall time of the attempt, in milliseconds. */
  durationMs: number;
  /** From `Retry-After` on a 429 or 503, in milliseconds from now. */
  retryAfterMs: number | null;
  /** The dispatcher stopped it (shutdown): not an attempt the merchant should be blamed for. */
  interrupted: boolean;
  /**
   * Never sent: the gateway could not make the attempt (no key of this instance opens the endpoint's secret or the
   * body). Recorded, retried on the schedule, but no failure of the endpoint's: its health is left alone.
   */
  unsent?: true;
}

export const ok = (result: DeliveryResult): boolean => result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;

class Shutdown extends Error {
  override readonly name = 'Shutdown';
}

const SHUTDOWN_GRACE_MS = 3_000;

/**
 * The deliveries a dispatcher has in flight (dispatcher-job.ts for MERCHANT_ENDPOINT, delivery-job.ts for merchants'
 * own endpoints), and the signal that stops their attempts at shutdown. On dispose they get SHUTDOWN_GRACE_MS of
 * wall time to finish and be recorded; the rest are then aborted with `Shutdown`, which `attempt` reports as
 * interrupted (not an attempt the merchant is blamed for: the dispatcher gives the lease back), and waited for.
 */
export class DeliveriesInFlight<T> {
  private readonly works = new Set<Promise<T>>();
  private readonly shutdown = new ShutdownSignal();

  /** Aborted at shutdown, once the grace has run out: passed to every attempt. */
  get signal(): StopSignal {
    return this.shutdown;
  }

  get size(): number {
    return this.works.size;
  }

  add(work: Promise<T>): void {
    this.works.add(work);
  }

  delete(work: Promise<T>): void {
    this.works.delete(work);
  }

  /** Waits up to SHUTDOWN_GRACE_MS for what is in flight, aborts the rest, and waits for them to be recorded. */
  async drain(): Promise<void> {
    await within(Promise.allSettled([...this.works]), SHUTDOWN_GRACE_MS, () => undefined);
    this.shutdown.abort(new Shutdown('the dispatcher is stopping'));
    await Promise.allSettled([...this.works]);
  }
}

/** What an attempt reads of the signal that stops it: an AbortSignal's, or a ShutdownSignal's. */
export interface StopSignal {
  readonly aborted: boolean;
  readonly reason: unknown;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

/**
 * The dispatcher's stop signal: a set of listeners rather than an AbortController, whose signal warned past ten
 * listeners (a dispatcher has up to its limit of attempts in flight) and, in a test environment imitating a browser
 * (vitest's `happy-dom`), was that environment's, which node's `setMaxListeners` refused: `createGateway()` failed.
 */
class ShutdownSignal implements StopSignal {
  aborted = false;
  reason: unknown = undefined;
  private readonly listeners = new Set<() => void>();

  addEventListener(_type: 'abort', listener: () => void): void {
    if (!this.aborted) this.listeners.add(listener);
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    this.listeners.delete(listener);
  }

  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    for (const listener of [...this.listeners]) listener();
    this.listeners.clear();
  }
}

/** How an attempt is made: its clock (the timeout), the dispatcher's stop signal, and the agents to connect with. */
export interface AttemptOptions {
  clock: Clock;
  signal: StopSignal;
  /** Merchants' endpoints: agents refusing what ENDPOINT_ALLOWED_NETWORKS does not allow (endpoint-connection-client.ts). */
  agents?: Agents;
}

type Agents = { 'http:': HttpAgent; 'https:': HttpsAgent };

export function deliver(request: DeliveryRequest, options: AttemptOptions): Promise<DeliveryResult> {
  // docs/operations.md#tracing: one client span per attempt, with the merchant's host and the status it answered,
  // under the span that queued the notification, or the request that asked for it out of turn (a redeliver, a test
  // event), linked to the first; the receiver gets the attempt's `traceparent`, as any traced call out does.
  const origin = tracingOn() ? deferredOrigin(request.traceParent, request.askedBy) : undefined;
  return inSpan('webhook.deliver', SpanKind.CLIENT, { 'server.address': new URL(request.url).host }, async (span) => {
    const result = await attempt({ ...request, headers: withTraceContext(request.headers) }, options);
    if (result.statusCode !== null) span.setAttribute('http.response.status_code', result.statusCode);
    if (!ok(result)) span.setStatus({ code: SpanStatusCode.ERROR, message: result.statusCode === null ? 'no answer' : `HTTP ${result.statusCode}` });
    return result;
  }, origin?.parent, origin?.linkedTo);
}

interface DeliveryRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  /** The `traceparent` kept with the notification (outbox-tables.ts): its attempts' spans go under it. */
  traceParent?: string | null;
  /** That of the request that made it due out of turn (migration 0017): the attempts' spans go under it instead. */
  askedBy?: string | null;
}

/**
 * Keep-alive connections per host, for MERCHANT_ENDPOINT (merchants' own endpoints have agents of their own,
 * endpoint-connection-client.ts). node:http rather than fetch: fetch's streams, abort signals and header guards
 * cost about a third of the dispatcher's CPU per delivery (bench/webhooks.ts). Idle sockets are unref'd by the
 * agent, so they keep no process alive, and closed before the server's own keep-alive timeout when it states one.
 */
const operatorAgents: Agents = { 'http:': new HttpAgent({ keepAlive: true }), 'https:': new HttpsAgent({ keepAlive: true }) };

async function attempt(request: DeliveryRequest, { clock, signal, agents = operatorAgents }: AttemptOptions): Promise<DeliveryResult> {
  const started = performance.now();
  const result: DeliveryResult = { statusCode: null, excerpt: null, error: null, durationMs: 0, retryAfterMs: null, interrupted: false };
  let req: ClientRequest | null = null;
  let stopped: unknown = null;
  const stop = (reason: unknown) => {
    stopped ??= reason;
    req?.destroy(reason instanceof Error ? reason : new Error(String(reason)));
  };
  const onAbort = () => stop(signal.reason);
  signal.addEventListener('abort', onAbort, { once: true });
  const timer = clock.setTimer(DELIVERY_TIMEOUT_MS, () => stop(new Error(`no answer within ${DELIVERY_TIMEOUT_MS / 1000} s`)));
  try {
    if (signal.aborted) throw signal.reason;
    const url = new URL(request.url);
    const send = url.protocol === 'https:' ? httpsRequest : url.protocol === 'http:' ? httpRequest : null;
    if (!send) throw new Error(`unsupported protocol ${url.protocol}`);
    // The body stays a string: node:http then writes the head and the body as one string, in one write, where a
    // Buffer went as a second chunk after the head (the bytes sent are the same).
    const body = request.body;
    const headers = { 'content-type': 'application/json', accept: 'application/json', 'user-agent': USER_AGENT, ...request.headers, 'content-length': String(Buffer.byteLength(body, 'utf8')) };
    // Settled by the answer's head: its status is the attempt's outcome from then on, whatever the body does after
    // it (a body still trickling at the timeout made a 2xx "no answer", retried: a duplicate the receiver had taken).
    const answer = await new Promise<{ head: IncomingMessage; body: Promise<string> }>((resolve, reject) => {
      req = send(url, { method: 'POST', headers, agent: agents[url.protocol as keyof Agents] }, (res) => resolve({ head: res, body: readExcerpt(res) }));
      req.on('error', reject);
      if (stopped) req.destroy(stopped instanceof Error ? stopped : new Error(String(stopped)));
      req.end(body);
    });
    const { statusCode = 0, headers: answerHeaders } = answer.head;
    result.statusCode = statusCode;
    if (statusCode === 429 || statusCode === 503) result.retryAfterMs = parseRetryAfter(answerHeaders['retry-after'] ?? null, clock.now());
    // Never followed (docs/merchant-webhooks.md#where-endpoints-may-be); where it pointed tells the merchant what to fix.
    if (statusCode >= 300 && statusCode < 400 && answerHeaders.location) result.error = `HTTP ${statusCode}: redirect to ${shown(answerHeaders.location)}, not followed`;
    // The timeout or a shutdown that comes while the body is read ends the read, not the answer.
    result.excerpt = (await answer.body) || null;
  } catch (error) {
    result.interrupted = stopped instanceof Shutdown || (stopped === null && error instanceof Shutdown);
    result.error = describe(stopped ?? error);
  } finally {
    timer.cancel();
    signal.removeEventListener('abort', onAbort);
    result.durationMs = Math.round(performance.now() - started);
  }
  return result;
}

/**
 * The longest throttle a `Retry-After` sets: a day. An endpoint answering `Retry-After: 99999999999` (or a date
 * in year 5000) held every delivery for three thousand years, and since nothing was attempted meanwhile,
 * ENDPOINT_DISABLE_AFTER never disabled it either; Svix and Stripe bound it too.
 */
export const MAX_RETRY_AFTER_MS = 24 * 3600_000;

/** `Retry-After`: delay-seconds or an HTTP date (RFC 9110 §10.2.3), at most MAX_RETRY_AFTER_MS; null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number): number | null {
  if (!value) return null;
  if (/^\d+$/u.test(value.trim())) return Math.min(Number(value.trim()) * 1000, MAX_RETRY_AFTER_MS);
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.min(Math.max(0, at - now), MAX_RETRY_AFTER_MS);
}

/**
 * The first EXCERPT_CHARS characters of an answer's body, reading no more than EXCERPT_BYTES of it: then the answer
 * is destroyed, and its socket with it (a kept-alive socket is never lent on with half a body unread). Resolves with
 * what came by the end, the cap, or the answer's close (the timeout or a shutdown destroys the request); never rejects.
 */
function readExcerpt(res: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let kept = 0;
    const done = () => resolve(Array.from(Buffer.concat(chunks).toString('utf8')).slice(0, EXCERPT_CHARS).join(''));
    res.on('data', (chunk: Buffer) => {
      const room = EXCERPT_BYTES - kept;
      chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
      kept += Math.min(chunk.length, room);
      if (kept < EXCERPT_BYTES) return;
      done();
      res.destroy();
    });
    res.on('end', done);
    res.on('close', done);
    // A connection cut mid-body (by the timeout, a shutdown or the receiver): what came is the excerpt.
    res.on('error', done);
  });
}

/** A header value fit for the record: no control characters, at most LOCATION_CHARS characters. */
function shown(value: string): string {
  // node:http decodes header bytes as latin1, so C1 controls (\x80-\x9f) can come too.
  const clean = Array.from(value.replace(/[\u0000-\u001f\u007f-\u009f]/gu, '').trim());
  return clean.length > LOCATION_CHARS ? `${clean.slice(0, LOCATION_CHARS).join('')}…` : clean.join('');
}

/** A short reason for the record: never the body sent (it may carry card data). */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error).slice(0, 200);
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return (cause?.code ? `${error.message}: ${cause.code}` : error.message).slice(0, 200);
}
