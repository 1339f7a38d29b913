// @vitest-environment happy-dom
/**
 * The package in vitest's happy-dom environment (dom-environment.ts). GraphQL through `gateway.fetch` answered
 * `[object ReadableStream]` there: happy-dom's Response took the stream of yoga's fetch classes for a string
 * (src/server.ts, serveFetch, now hands it a standard ReadableStream).
 */
import { it } from 'vitest';
import { followAnOrderToItsCancellation } from './dom-environment.ts';

it('runs in vitest\'s happy-dom environment: an order followed over SSE until its hold runs out', followAnOrderToItsCancellation);
