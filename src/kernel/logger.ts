/**
 * Structured JSON logs, one object a line (docs/running.md#logs). A last line of defence scrubs anything
 * that looks like a card number, so a mistake elsewhere cannot put one in a log.
 *
 * The request id (docs/operations.md#request-logs): a line written inside a request's scope carries its
 * `requestId`. The scope is an AsyncLocalStorage, entered where a request comes in (LOG_REQUEST_SCOPE), and a
 * synchronous stand-in (`withRequestId`) where a door logs for a request that runs outside it.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { writeSync } from 'node:fs';
import type { LogLevel } from './config.ts';
import { scrub } from './card-number.ts';
import { RequestLineBytes, requestLineText, type RequestLine } from './request-line-bytes.ts';

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };
export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  /** The request line, at `info` (docs/operations.md#request-logs); a logger without it gets `info('request', line)`. */
  request?(line: RequestLine): void;
}

export type LogSink = (line: string) => void;

/** What a line written inside a request carries: its id (x-request-id). */
export interface RequestScope {
  readonly requestId: string;
}

/** The scope of the request being served, wherever its work continues (awaits, timers, events it causes). */
const requestScope = new AsyncLocalStorage<RequestScope>();
/** Requests running inside the scope now. */
let scoped = 0;
/** The request a door is logging for synchronously (withRequestId), outside the scope. */
let current: RequestScope | undefined;

/**
 * Runs `fn(...args)` inside the scope of request `requestId`. The storage is switched on only while some request
 * runs inside it, and off again after the last: on Node 20 an AsyncLocalStorage in use slows every promise of the
 * process (a third of a small request's throughput, measured), so the requests that log nothing but their request
 * line — reads — are left outside it (src/server.ts says which).
 */
export function runInRequestScope<A extends unknown[], R>(requestId: string, fn: (...args: A) => Promise<R>, ...args: A): Promise<R> {
  scoped++;
  let pending: Promise<R>;
  try {
    pending = requestScope.run({ requestId }, fn, ...args);
  } catch (error) {
    leaveScope();
    throw error;
  }
  return pending.finally(leaveScope);
}

function leaveScope(): void {
  if (--scoped === 0) requestScope.disable();
}

/** Runs `fn(...args)` at once, its lines carrying `requestId`: a door's own line for a request outside the scope. */
export function withRequestId<A extends unknown[], R>(requestId: string | undefined, fn: (...args: A) => R, ...args: A): R {
  if (requestId === undefined) return fn(...args);
  const outer = current;
  current = { requestId };
  try {
    return fn(...args);
  } finally {
    current = outer;
  }
}

/**
 * Runs `fn(...args)` outside every request's scope: for what belongs to no request, heard in an async context that a
 * request merely started (a pooled connection's socket, opened by whichever request first needed it, that dies later).
 * Written inside, such a line carried that long-answered request's id.
 */
export function outsideRequestScope<A extends unknown[], R>(fn: (...args: A) => R, ...args: A): R {
  const outer = current;
  current = undefined;
  try {
    return requestScope.exit(fn, ...args);
  } finally {
    current = outer;
  }
}

/**
 * An error as name, message and stack, and the error it wraps (a GraphQLError's originalError) the same way. Never
 * `String(error)`: a GraphQLError prints the document's source around its location, and a document may hold a
 * payToken inline.
 */
function errorFields(value: unknown, depth = 0): unknown {
  if (!(value instanceof Error)) return value;
  const fields: Record<string, unknown> = { name: value.name, message: value.message, stack: value.stack };
  const original = (value as { originalError?: unknown }).originalError;
  if (original instanceof Error && original !== value && depth < 2) fields.original = errorFields(original, depth + 1);
  return fields;
}

let clockMs = 0;
let clockText = '';

/** The ISO time of `now`, made once per millisecond: a busy server writes many lines in the same one. */
function isoTime(now: number): string {
  if (now !== clockMs) {
    clockMs = now;
    clockText = new Date(now).toISOString();
  }
  return clockText;
}

class JsonLogger implements Logger {
  /** The last client address written, and its JSON (a busy client sends many requests in a row). */
  private client = '';
  private clientJson = '""';
  /** Each route template's JSON (a bounded set, written on every line): JSON.stringify once, not per line. */
  private readonly routes = new Map<string, string>();

  constructor(
    private readonly min: number,
    private readonly sink: LogSink | StdoutSink,
  ) {}

  debug(msg: string, fields?: Record<string, unknown>): void {
    if (RANK.debug >= this.min) this.write('debug', msg, fields);
  }

  info(msg: string, fields?: Record<string, unknown>): void {
    if (RANK.info >= this.min) this.write('info', msg, fields);
  }

  warn(msg: string, fields?: Record<string, unknown>): void {
    if (RANK.warn >= this.min) this.write('warn', msg, fields);
  }

  error(msg: string, fields?: Record<string, unknown>): void {
    if (RANK.error >= this.min) this.write('error', msg, fields);
  }

  /**
   * The same line `info('request', line)` writes, put together by hand: it is written for every request, and an
   * object through JSON.stringify and the scrubber costs a few times more. To stdout it goes as bytes straight into
   * the gathering buffer (src/kernel/request-line-bytes.ts). Only the client address (a forwarded header's reading,
   * when a proxy is trusted) is escaped and scrubbed; every other field is safe as it is (RequestLine).
   */
  request(line: RequestLine): void {
    if (RANK.info < this.min) return;
    if (line.client !== this.client) {
      this.client = line.client;
      this.clientJson = JSON.stringify(scrub(line.client));
    }
    let route = this.routes.get(line.route);
    if (route === undefined) {
      route = JSON.stringify(line.route);
      if (this.routes.size < 1000) this.routes.set(line.route, route);
    }
    const traceId = traceIdOf?.();
    if (typeof this.sink === 'function') this.sink(requestLineText(isoTime(Date.now()), line, route, this.clientJson, traceId));
    else this.sink.request(line, route, this.clientJson, traceId);
  }

  private write(level: Exclude<LogLevel, 'silent'>, msg: string, fields: Record<string, unknown> | undefined): void {
    const entry: Record<string, unknown> = { time: isoTime(Date.now()), level, msg };
    const scope = current ?? requestScope.getStore();
    if (scope !== undefined) entry.requestId = scope.requestId;
    const traceId = traceIdOf?.();
    if (traceId) entry.traceId = traceId;
    if (fields) for (const key in fields) entry[key] = errorFields(fields[key]);
    const text = scrub(JSON.stringify(entry));
    if (typeof this.sink === 'function') this.sink(text);
    else this.sink.write(text);
  }
}

/**
 * Where log lines read the active trace's id (docs/operations.md#tracing): set by the tracing SDK when it starts, so
 * the logger never loads OpenTelemetry itself. A trace id is 32 hex digits: safe in a hand-built line.
 */
let traceIdOf: (() => string | undefined) | undefined;

export function readTraceIdsFrom(source: (() => string | undefined) | undefined): void {
  traceIdOf = source;
}

/** Gathered lines wait at most this long (or until the buffer is full) before they are written. */
const FLUSH_MS = 20;
/** The gathering buffer: a busy server fills it about every 10 ms. */
const BUFFER_BYTES = 64 * 1024;

/**
 * Lines to stdout, gathered and written together at most FLUSH_MS later: a write to a pipe or a file is a system
 * call, and a busy server writes a request line for every request. Each line is encoded at once into an off-heap
 * buffer, so the line's string dies young: lines kept as strings until the flush outlived a scavenge or two and were
 * copied and promoted, which cost more than making them (docs/operations.md#what-they-cost). What is gathered is
 * written before the process exits (process.exit and an uncaught error included); only a SIGKILL can lose it, at
 * most FLUSH_MS of lines. When stdout fails (its reader gone: EPIPE), the lines are dropped from then on and the
 * service goes on: at a live event, orders matter more than their log lines, and an unhandled stream error would
 * have ended the process with every request in flight. The same holds for stderr (Node's warnings, the notice).
 */
/** stderr failed (its reader gone): the sink's one notice is not written there. */
let stderrFailed = false;

class StdoutSink {
  private buffer = Buffer.allocUnsafe(BUFFER_BYTES);
  private used = 0;
  private timer: NodeJS.Timeout | null = null;
  private readonly requestLine = new RequestLineBytes();
  private failed = false;

  constructor() {
    this.flush = this.flush.bind(this);
    process.on('exit', this.flushNow.bind(this));
    process.stdout.on('error', (error: NodeJS.ErrnoException) => {
      if (this.failed) return;
      this.failed = true;
      this.used = 0;
      if (!stderrFailed) process.stderr.write(`sleeve-gateway: stdout failed (${error.code ?? error.message}): log lines are dropped from now on; the service goes on\n`);
    });
    // Often the same pipe as stdout (`2>&1 | shipper`): its failure is noted, not fatal, and nothing more is told there.
    process.stderr.on('error', () => (stderrFailed = true));
  }

  write(line: string): void {
    if (this.failed) return;
    // A line with its newline fits when its UTF-8 form does: at most 3 bytes per UTF-16 unit.
    if (this.used + 3 * line.length + 1 > this.buffer.length) {
      this.flush();
      if (3 * line.length + 1 > this.buffer.length) {
        process.stdout.write(line + '\n'); // longer than the whole buffer: on its own
        return;
      }
    }
    this.used += this.buffer.write(line, this.used, 'utf8');
    this.gathered();
  }

  /** A request line, encoded into the buffer (src/kernel/request-line-bytes.ts); `route`, `client`: their JSON. */
  request(line: RequestLine, route: string, client: string, traceId: string | undefined): void {
    if (this.failed) return;
    const size = this.requestLine.size(line, route, client, traceId) + 1;
    if (this.used + size > this.buffer.length) {
      this.flush();
      if (size > this.buffer.length) {
        this.write(requestLineText(isoTime(Date.now()), line, route, client, traceId));
        return;
      }
    }
    this.used = this.requestLine.write(this.buffer, this.used, Date.now(), line, route, client, traceId);
    this.gathered();
  }

  /** A line is in the buffer: its newline, and the flush it waits for. */
  private gathered(): void {
    this.buffer[this.used++] = 10;
    if (this.timer === null) this.timer = setTimeout(this.flush, FLUSH_MS).unref();
  }

  flush(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    const bytes = this.take();
    if (bytes !== null) process.stdout.write(bytes);
  }

  /** The gathered bytes, handed over with their buffer (a write to a pipe may still read it later), or null. */
  private take(): Buffer | null {
    if (this.used === 0) return null;
    const bytes = this.buffer.subarray(0, this.used);
    this.buffer = Buffer.allocUnsafe(BUFFER_BYTES);
    this.used = 0;
    return bytes;
  }

  /** At exit no write can wait: straight to the file descriptor. */
  private flushNow(): void {
    const bytes = this.take();
    if (bytes === null) return;
    try {
      writeSync(1, bytes);
    } catch {
      // stdout closed: nothing can be written any more
    }
  }
}

let stdout: StdoutSink | undefined;

/** A logger of lines at `level` and up, to `sink` or else to stdout (gathered, above). */
export function createLogger(level: LogLevel, sink?: LogSink): Logger {
  return new JsonLogger(RANK[level], sink ?? (stdout ??= new StdoutSink()));
}
