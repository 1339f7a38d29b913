/**
 * Processor calls as spans (docs/operations.md#tracing): each charge and refund is one client span, with the
 * amount's currency and the kind of source — never the card, the charge id or the idempotency key.
 */
import { inSpan, SpanKind } from '../operations/tracing.ts';
import type { ChargeRequest, ChargeResult, Processor } from './processor.ts';

export function tracedProcessor(inner: Processor): Processor {
  return {
    charge: (request: ChargeRequest): Promise<ChargeResult> =>
      inSpan('processor.charge', SpanKind.CLIENT, { 'payment.currency': request.currency, 'payment.source': request.source.kind }, async (span) => {
        const result = await inner.charge(request);
        span.setAttribute('payment.outcome', result.outcome);
        return result;
      }),
    refund: (chargeId: string): Promise<void> => inSpan('processor.refund', SpanKind.CLIENT, {}, () => inner.refund(chargeId)),
  };
}
