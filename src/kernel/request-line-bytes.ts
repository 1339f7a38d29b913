/**
 * The request line (docs/operations.md#request-logs) written straight into the log's gathering buffer as bytes,
 * the same bytes as the text `requestLineText` makes. Every request writes one, and the text way cost 0.6–0.9 µs a
 * line in a loop of its own (docs/operations.md#what-they-cost): a template string of a dozen parts built, then
 * flattened and encoded into the buffer, and the duration, a fraction, printed by the engine's shortest-decimal
 * algorithm. This way costs about 0.23 µs: what repeats from line to line is kept encoded and copied (see
 * `RequestLineBytes`), the ids (ASCII by construction: src/operations/request-log.ts) and the duration's digits are
 * written a byte at a time.
 */

/**
 * One request, answered (src/operations/request-log.ts). Every field is bounded and safe by construction: an id
 * of `A-Za-z0-9._:-` the scrubber leaves alone, a method of the usual few (or OTHER), a route template.
 */
export interface RequestLine {
  requestId: string;
  method: string;
  route: string;
  status: number;
  durationMs: number;
  client: string;
}

const ascii = (text: string): Uint8Array => Buffer.from(text, 'latin1');
const utf8 = (text: string): Uint8Array => Buffer.from(text, 'utf8');

/**
 * The line's text, in the pieces both forms are made of (the bytes keep each one encoded): the head up to the
 * request id, the trace id's key, the middle from the end of an id to the duration, and the tail after it.
 */
const headText = (time: string): string => `{"time":"${time}","level":"info","msg":"request","requestId":"`;
const TRACE_TEXT = '","traceId":"';
const middleText = (method: string, route: string, status: number): string => `","method":"${method}","route":${route},"status":${status},"durationMs":`;
const tailText = (client: string): string => `,"client":${client}}`;

const TRACE = ascii(TRACE_TEXT);
/**
 * The most bytes a line takes beside its id, trace id, method, route and client: the fixed text, the longest time
 * (27: a year past 9999), and the status and the duration at 24 each, the longest number the engine prints
 * (`-2.2250738585072014e-308`; the 0 written for the status below counts one byte more, which a bound allows).
 */
const FIXED_BYTES = (headText('') + TRACE_TEXT + middleText('', '', 0) + tailText('')).length + 27 + 2 * 24;
/** The methods a request line names (src/operations/request-log.ts), each a small number for the middles' keys. */
const METHOD_INDEX: Readonly<Record<string, number>> = { GET: 1, HEAD: 2, POST: 3, PUT: 4, DELETE: 5, PATCH: 6, OPTIONS: 7, OTHER: 8 };
/** Middles kept at most: routes are a bounded set, and so are the statuses a route answers, but not by much. */
const MAX_MIDDLES = 4096;

/** The line as text: the form a sink of strings gets (and what the bytes are checked against in the tests). */
export function requestLineText(time: string, line: RequestLine, route: string, client: string, traceId: string | undefined): string {
  return headText(time) + line.requestId + (traceId ? TRACE_TEXT + traceId : '') + middleText(line.method, route, line.status) + String(line.durationMs) + tailText(client);
}

/** Writes `text`, ASCII, at `at`; answers where it ends. */
function writeAscii(target: Uint8Array, at: number, text: string): number {
  for (let i = 0; i < text.length; i++) target[at++] = text.charCodeAt(i);
  return at;
}

/** Writes `digits` (1 to 3) of `value` (0 ≤ value < 10^digits) in decimal, zero-padded, at `at`. */
function writeDigits(target: Uint8Array, at: number, value: number, digits: number): number {
  for (let i = at + digits - 1; i >= at; i--) {
    target[i] = 48 + (value % 10);
    value = Math.floor(value / 10);
  }
  return at + digits;
}

/**
 * The duration as `${durationMs}` prints it. It holds at most three decimals (request-log.ts rounds it), and for
 * such a number the shortest decimal that reads back the same is the number with its trailing zeros dropped. A
 * duration of a million seconds or more, or any other number (none is made today), is printed by the engine.
 */
function writeDuration(target: Uint8Array, at: number, ms: number): number {
  const thousandths = Math.round(ms * 1000);
  if (!(ms >= 0 && ms < 1e9) || thousandths / 1000 !== ms) return writeAscii(target, at, String(ms));
  const whole = Math.floor(thousandths / 1000);
  let width = 1;
  for (let rest = whole; rest >= 10; rest = Math.floor(rest / 10)) width++;
  at = writeDigits(target, at, whole, width);
  let fraction = thousandths % 1000;
  if (fraction === 0) return at;
  target[at++] = 46; // .
  width = 3;
  while (fraction % 10 === 0) ((fraction /= 10), width--);
  return writeDigits(target, at, fraction, width);
}

/**
 * Writes request lines as bytes. What repeats from line to line is kept encoded, in three parts around the id and
 * the duration: the head (up to the id: the time changes once a millisecond), the middle (method, route, status:
 * one for each route, method and status seen) and the tail (the client, the last one's).
 */
export class RequestLineBytes {
  private timeMs = Number.NaN;
  private head = ascii('');
  private readonly middles = new Map<string, Map<number, Uint8Array>>();
  private middleCount = 0;
  private clientJson = '';
  private tail = ascii('');

  /** The most bytes `write` takes for `line`, with `route` and `client` as JSON strings. */
  size(line: RequestLine, route: string, client: string, traceId: string | undefined): number {
    return FIXED_BYTES + line.requestId.length + (traceId?.length ?? 0) + 3 * (line.method.length + route.length + client.length);
  }

  /**
   * Writes the line of `line` at `now` into `target` at `at` (room for `size` bytes), with `route` and `client`
   * as JSON strings; answers where it ends.
   */
  write(target: Uint8Array, at: number, now: number, line: RequestLine, route: string, client: string, traceId: string | undefined): number {
    if (now !== this.timeMs) {
      this.timeMs = now;
      this.head = ascii(headText(new Date(now).toISOString()));
    }
    target.set(this.head, at);
    at = writeAscii(target, at + this.head.length, line.requestId);
    if (traceId) {
      target.set(TRACE, at);
      at = writeAscii(target, at + TRACE.length, traceId);
    }
    const middle = this.middle(line.method, route, line.status);
    target.set(middle, at);
    at = writeDuration(target, at + middle.length, line.durationMs);
    if (client !== this.clientJson) {
      this.clientJson = client;
      this.tail = utf8(tailText(client));
    }
    target.set(this.tail, at);
    return at + this.tail.length;
  }

  /** middleText (`","method":"GET","route":"/x","status":200,"durationMs":`), kept per route, method and whole status. */
  private middle(method: string, route: string, status: number): Uint8Array {
    const methodIndex = METHOD_INDEX[method];
    const key = Number.isInteger(status) && status >= 0 && status < 1000 && methodIndex !== undefined ? status * 16 + methodIndex : -1;
    let byRoute = this.middles.get(route);
    let middle = key < 0 ? undefined : byRoute?.get(key);
    if (middle !== undefined) return middle;
    middle = utf8(middleText(method, route, status));
    if (key < 0 || this.middleCount >= MAX_MIDDLES) return middle;
    if (byRoute === undefined) this.middles.set(route, (byRoute = new Map()));
    byRoute.set(key, middle);
    this.middleCount++;
    return middle;
  }
}
