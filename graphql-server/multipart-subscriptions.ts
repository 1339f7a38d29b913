/**
 * Subscriptions over HTTP multipart, in Apollo's protocol (docs/graphql.md#subscriptions-over-http-multipart): what
 * Apollo Client's HttpLink asks for when a subscription reaches it, `accept: multipart/mixed;boundary=graphql;
 * subscriptionSpec=1.0, …`. yoga serves subscriptions only as SSE (its own multipart format is for @defer and
 * @stream, and yoga leaves it out for subscriptions), so a client with an HttpLink alone, Apollo Client's default,
 * got a bare 406.
 *
 * Each event is one part, `{"payload": <the execution result>}`; a heartbeat part `{}` every STREAM_PING_MS keeps
 * proxies from closing an idle stream (clients skip it); the stream's end is the closing boundary, which Apollo reads
 * as the subscription's completion. An error of the stream itself (not of an event's execution, which is the
 * payload's `errors`) is the protocol's transport error, `{"payload": null, "errors": [...]}`, masked, then the end.
 * Every part ends with the next boundary, so a client parses each event as it arrives, not when the next one comes.
 */
import { isAsyncIterable, type Plugin } from 'graphql-yoga';
import type { ExecutionResult } from 'graphql';
import type { Logger } from '../src/kernel/logger.ts';
import { STREAM_PING_MS } from './single-connection-operations.ts';
import { endingOnAbort } from './use-abortable-subscriptions.ts';

type FetchApi = { ReadableStream: typeof ReadableStream; Response: typeof Response; TextEncoder: typeof TextEncoder };

const MULTIPART_SUBSCRIPTION_TYPE = 'multipart/mixed;boundary="graphql";subscriptionSpec="1.0"';
const PART_HEAD = '\r\ncontent-type: application/json; charset=utf-8\r\n\r\n';
const BOUNDARY = '\r\n--graphql';
/** What follows the last part's boundary: it becomes the closing one (stream-shutdown.ts writes it too). */
const CLOSE = '--\r\n';

/** A media range of an Accept header: its type, lower-cased, and its parameters, names lower-cased, quotes removed. */
function mediaRanges(accept: string): Array<{ type: string; params: Map<string, string> }> {
  return accept.split(',').map((range) => {
    const [type = '', ...rest] = range.split(';').map((part) => part.trim());
    const params = new Map(rest.map((param) => {
      const at = param.indexOf('=');
      return [param.slice(0, at).trim().toLowerCase(), param.slice(at + 1).trim().replace(/^"(.*)"$/u, '$1')] as const;
    }));
    return { type: type.toLowerCase(), params };
  });
}

/**
 * Whether a subscription asked with this Accept header is answered in Apollo's multipart protocol: it names
 * multipart/mixed with `subscriptionSpec=1.0`, before text/event-stream if it names that too (the client's order).
 */
export function asksForMultipartSubscription(accept: string | null | undefined): boolean {
  if (!accept?.includes('multipart/mixed')) return false;
  const ranges = mediaRanges(accept);
  const multipart = ranges.findIndex((r) => r.type === 'multipart/mixed' && r.params.get('subscriptionspec') === '1.0');
  const events = ranges.findIndex((r) => r.type === 'text/event-stream');
  return multipart >= 0 && (events < 0 || multipart < events);
}

/** The result as a client may see it: yoga's internal `http` extension (a status to answer with) left out. */
function withoutInternals(result: ExecutionResult): ExecutionResult {
  if (!result.errors?.length) return result;
  const errors = result.errors.map((error) => {
    // A GraphQLError has its JSON form; an error a stream made by hand may be a plain object already.
    const json = typeof error.toJSON === 'function' ? error.toJSON() : (error as ReturnType<typeof error.toJSON>);
    if (!json.extensions || !('http' in json.extensions)) return json;
    const { http: _http, ...extensions } = json.extensions;
    return { ...json, extensions: Object.keys(extensions).length ? extensions : undefined };
  });
  return { ...result, errors } as unknown as ExecutionResult;
}

/** The streamed answer: a part per event, heartbeats between them, the closing boundary at the end. */
export function processMultipartSubscription(result: AsyncIterable<ExecutionResult>, fetchAPI: FetchApi, logger: Logger, signal?: AbortSignal): Response {
  // The request's signal aborts when the client goes away. A cancel of this stream alone came only after its pending
  // read, which waits for the next event: the subscription went on, and counted as open, until then.
  const iterator = signal ? endingOnAbort(result, signal) : result[Symbol.asyncIterator]();
  const encoder = new fetchAPI.TextEncoder();
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  /** Cancelled by its reader (the client gone, a shutdown): a read still pending must write nothing more. */
  let cancelled = false;
  const stop = () => clearInterval(heartbeat);
  const body = new fetchAPI.ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(BOUNDARY));
      heartbeat = setInterval(() => controller.enqueue(encoder.encode(`${PART_HEAD}{}${BOUNDARY}`)), STREAM_PING_MS);
      heartbeat.unref?.();
    },
    async pull(controller) {
      let text: string;
      let done = false;
      try {
        const step = await iterator.next();
        done = step.done === true;
        text = done ? '' : JSON.stringify({ payload: withoutInternals(step.value) });
      } catch (error) {
        // The stream itself failed: the protocol's transport error, then the end; the cause is for the log only.
        logger.error('subscription stream failed', { transport: 'multipart', error: error instanceof Error ? error.message : String(error) });
        text = JSON.stringify({ payload: null, errors: [{ message: 'Unexpected error.', extensions: { code: 'INTERNAL_SERVER_ERROR' } }] });
        done = true;
        void iterator.return?.();
      }
      if (cancelled) return;
      if (text) controller.enqueue(encoder.encode(`${PART_HEAD}${text}${BOUNDARY}`));
      if (done) {
        stop();
        controller.enqueue(encoder.encode(CLOSE));
        controller.close();
      }
    },
    async cancel() {
      cancelled = true;
      stop();
      await iterator.return?.();
    },
  });
  return new fetchAPI.Response(body, {
    status: 200,
    headers: { 'content-type': MULTIPART_SUBSCRIPTION_TYPE, 'cache-control': 'no-cache', connection: 'keep-alive' },
  });
}

/** Picks the multipart answer for a subscription that asks for it; yoga's own processors decide everything else. */
export function useMultipartSubscriptions(logger: Logger): Plugin {
  return {
    onResultProcess({ request, result, setResultProcessor }) {
      if (!isAsyncIterable(result) || !asksForMultipartSubscription(request.headers.get('accept'))) return;
      const processor = (answer: unknown, fetchAPI: unknown) => processMultipartSubscription(answer as AsyncIterable<ExecutionResult>, fetchAPI as FetchApi, logger, request.signal);
      setResultProcessor(processor as never, 'multipart/mixed');
    },
  };
}
