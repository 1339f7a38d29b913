/**
 * The request line written as bytes into the log's buffer (src/kernel/request-line-bytes.ts) is the same line, byte
 * for byte, as the text a sink of strings gets: across durations of every shape, statuses, methods, routes and
 * clients outside ASCII, a trace id or none, and the parts it keeps encoded from one line to the next.
 */
import { describe, expect, it } from 'vitest';
import { RequestLineBytes, requestLineText, type RequestLine } from '../../src/kernel/request-line-bytes.ts';

const NOW = Date.parse('2026-12-01T17:28:31.100Z');
const BASE: RequestLine = { requestId: 'jcBD5Mx--1', method: 'GET', route: '/api/sleeve-options', status: 200, durationMs: 0.123, client: '127.0.0.1' };
const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';

/** Writes `lines` one after another into one buffer, as the log does; answers each line's text as written. */
function written(encoder: RequestLineBytes, lines: Array<{ line: RequestLine; now?: number; traceId?: string }>): string[] {
  const buffer = Buffer.alloc(64 * 1024, 0xff);
  let at = 3; // not at the start: the buffer holds other lines
  return lines.map(({ line, now = NOW, traceId }) => {
    const route = JSON.stringify(line.route);
    const client = JSON.stringify(line.client);
    const size = encoder.size(line, route, client, traceId);
    const end = encoder.write(buffer, at, now, line, route, client, traceId);
    expect(end - at).toBeLessThanOrEqual(size);
    const text = buffer.toString('utf8', at, end);
    at = end;
    return text;
  });
}

/** The text path's line for the same request. */
function expected({ line, now = NOW, traceId }: { line: RequestLine; now?: number; traceId?: string }): string {
  return requestLineText(new Date(now).toISOString(), line, JSON.stringify(line.route), JSON.stringify(line.client), traceId);
}

describe('a request line written as bytes', () => {
  it('is the text line for every duration a request can take, and JSON that reads back the same duration', () => {
    const durations = [0, 0.001, 0.01, 0.1, 0.12, 0.123, 0.5, 1, 9.999, 10, 12.3, 99.05, 100.001, 1234.567, 60_000, 86_400_000.25, 999_999_999.999];
    const lines = durations.map((durationMs) => ({ line: { ...BASE, durationMs } }));
    const texts = written(new RequestLineBytes(), lines);
    expect(texts).toEqual(lines.map(expected));
    expect(texts.map((text) => (JSON.parse(text) as RequestLine).durationMs)).toEqual(durations);
  });

  it('leaves a duration it does not make (more decimals, past a million seconds, not a number) to the engine', () => {
    const lines = [0.1234, 1 / 3, 1e9, 1.5e21, -1, Number.NaN].map((durationMs) => ({ line: { ...BASE, durationMs } }));
    expect(written(new RequestLineBytes(), lines)).toEqual(lines.map(expected));
  });

  it('is the text line for each status, method, route and client, with a trace id or none, in any order', () => {
    const variants: RequestLine[] = [
      BASE,
      { ...BASE, status: 404, route: 'unmatched' },
      { ...BASE, method: 'POST', route: '/api/orders/{orderNumber}/pay', status: 201 },
      { ...BASE, method: 'OTHER', status: 405 },
      { ...BASE, method: 'POST', route: '/api/orders/{orderNumber}/pay', status: 422 },
      { ...BASE, route: '/pages/commande/{n}/é', client: 'café "quoted" \\ ☕' },
      { ...BASE, status: 200.5, client: '::ffff:10.0.0.7' },
      { ...BASE, requestId: 'a'.repeat(128) },
    ];
    const lines = [...variants, ...variants.map((line) => ({ ...line, durationMs: 4.2 })).reverse()].flatMap((line, i) => [
      { line },
      { line, traceId: TRACE_ID, now: NOW + i },
    ]);
    const texts = written(new RequestLineBytes(), lines);
    expect(texts).toEqual(lines.map(expected));
    for (const text of texts) expect(() => JSON.parse(text)).not.toThrow();
  });

  it('writes each millisecond its own time, a year past 9999 included', () => {
    const times = [NOW, NOW, NOW + 1, NOW + 86_400_000, Date.parse('+010000-01-01T00:00:00.000Z'), NOW];
    const lines = times.map((now) => ({ line: BASE, now }));
    expect(written(new RequestLineBytes(), lines)).toEqual(lines.map(expected));
  });
});
