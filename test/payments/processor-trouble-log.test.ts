/**
 * A processor that fails or does not answer is the operator's business: each such payment is a `warn` line
 * (docs/operations.md#logs). An outside operator review paid with the timeout card, got 502 payment_unknown, and
 * found only `info` lines ("payment recorded", status unknown): an outage of the processor showed in no level above
 * info, only by filtering request lines on 502.
 */
import { expect, it } from 'vitest';
import { createLogger } from '../../src/kernel/logger.ts';
import { testGateway } from '../support/gateway.ts';
import { card, CARDS } from './support.ts';

it.each([
  ['the processor-error card', CARDS.processorError, 'payment_error', 'failed'],
  ['the timeout card', CARDS.timeoutAfterCharge, 'payment_unknown', 'unknown'],
])('%s: the payment is a warn line, saying what the processor did', async (_what, number, code, status) => {
  const lines: Array<Record<string, unknown>> = [];
  const t = await testGateway({ logger: createLogger('info', (line) => void lines.push(JSON.parse(line) as Record<string, unknown>)) });
  const { orderNumber, payToken } = await t.createOrder();
  const token = (await t.rest('POST', `/api/orders/${orderNumber}/card-token`, { t: payToken, ...card(number), cvc: '123' })).body.token as string;
  expect((await t.rest('POST', `/api/orders/${orderNumber}/pay`, { t: payToken, method: 'card', token })).body.code).toBe(code);
  const recorded = lines.filter((line) => line.paymentId !== undefined && line.status === status);
  expect(recorded).toEqual([expect.objectContaining({ level: 'warn', msg: expect.stringMatching(/processor/u) })]);
});
