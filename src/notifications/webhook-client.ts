/**
 * One HTTP attempt (document 2 §1, docs/notifications.md#delivery-and-retries): POST the body to MERCHANT_ENDPOINT + path with
 * `content-type` and `accept: application/json` and the signature headers, and report what came back. The
 * timeout is a timer on the injected clock, so tests move time instead of waiting 10 s. Never throws.
 */
import { setMaxListeners } from 'node:events';
import { Agent as HttpAgent, request as httpRequest, type ClientRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Clock } from '../kernel/clock.ts';
import { inSpan, SpanKind, SpanStatusCode } from '../operations/tracing.ts';

export const DELIVERY_TIMEOUT_MS = 10_000;
/** The stored excerpt of a merchant's answer (outbox_attempts.response_excerpt is varchar(1000)). */
const EXCERPT_CHARS = 500;

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
  private readonly shutdown = new AbortController();

  /** `max`: the dispatcher's limit of deliveries in flight, each of which listens to the signal. */
  constructor(max: number) {
    setMaxListeners(max + 1, this.shutdown.signal);
  }

  /** Aborted at shutdown, once the grace has run out: passed to every attempt. */
  get signal(): AbortSignal {
    return this.shutdown.signal;
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
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, SHUTDOWN_GRACE_MS).unref()));
    await Promise.race([Promise.allSettled([...this.works]), grace]);
    // Not left to fire: a test or an embedding process that disposes often would gather them.
    clearTimeout(timer);
    this.shutdown.abort(new Shutdown('the dispatcher is stopping'));
    await Promise.allSettled([...this.works]);
  }
}

/** How an attempt is made: its clock (the timeout), the dispatcher's stop signal, and the agents to connect with. */
export interface AttemptOptions {
  clock: Clock;
  signal: AbortSignal;
  /** Merchants' endpoints: agents refusing what ENDPOINT_ALLOWED_NETWORKS does not allow (endpoint-connection-client.ts). */
  agents?: Agents;
}

type Agents = { 'http:': HttpAgent; 'https:': HttpsAgent };

export function deliver(request: DeliveryRequest, options: AttemptOptions): Promise<DeliveryResult> {
  // docs/operations.md#tracing: one client span per attempt, with the merchant's host and the status it answered.
  return inSpan('webhook.deliver', SpanKind.CLIENT, { 'server.address': new URL(request.url).host }, async (span) => {
    const result = await attempt(request, options);
    if (result.statusCode !== null) span.setAttribute('http.response.status_code', result.statusCode);
    if (!ok(result)) span.setStatus({ code: SpanStatusCode.ERROR, message: result.statusCode === null ? 'no answer' : `HTTP ${result.statusCode}` });
    return result;
  });
}

interface DeliveryRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
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
    const headers = { 'content-type': 'application/json', accept: 'application/json', ...request.headers, 'content-length': String(Buffer.byteLength(body, 'utf8')) };
    const response = await new Promise<{ status: number; text: string; retryAfter: string | null }>((resolve, reject) => {
      req = send(url, { method: 'POST', headers, agent: agents[url.protocol as keyof Agents] }, (res) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        res.on('data', (chunk: Buffer) => {
          // Only the excerpt is kept; the rest is read and dropped, so the connection can serve the next attempt.
          if (kept >= EXCERPT_CHARS * 4) return;
          chunks.push(chunk);
          kept += chunk.length;
        });
        res.on('end', () => {
          const retryAfter = res.headers['retry-after'];
          resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8'), retryAfter: retryAfter ?? null });
        });
        res.on('error', reject);
        res.on('close', () => res.complete || reject(new Error('the answer was cut off')));
      });
      req.on('error', reject);
      if (stopped) req.destroy(stopped instanceof Error ? stopped : new Error(String(stopped)));
      req.end(body);
    });
    result.statusCode = response.status;
    result.excerpt = response.text.slice(0, EXCERPT_CHARS) || null;
    if (response.status === 429 || response.status === 503) result.retryAfterMs = parseRetryAfter(response.retryAfter, clock.now());
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

/** A short reason for the record: never the body sent (it may carry card data). */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error).slice(0, 200);
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return (cause?.code ? `${error.message}: ${cause.code}` : error.message).slice(0, 200);
}
