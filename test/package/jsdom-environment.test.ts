// @vitest-environment jsdom
/** The package in vitest's jsdom environment (dom-environment.ts). */
import { it } from 'vitest';
import { followAnOrderToItsCancellation } from './dom-environment.ts';

it('runs in vitest\'s jsdom environment: an order followed over SSE until its hold runs out', followAnOrderToItsCancellation);
