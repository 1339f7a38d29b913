/**
 * Document 1 §4: the sleeve ordering paths. Route → parse → service call → documented body (document 1 §2's Order
 * and PayResult, field for field, from the domain view).
 */
import { DomainError } from '../src/kernel/errors.ts';
import { parseOrderInput, parsePayInput } from '../src/orders/order-input.ts';
import { viewOptions } from '../src/orders/options-view.ts';
import type { OrderView, PayResultView } from '../src/orders/order-view.ts';
import { emailSubject, enforceRateLimit, orderSubject, type RateGroup, type RateLimiter } from '../src/kernel/rate-limiter.ts';
import type { Services } from '../src/services.ts';
import { openedOrCounted } from '../src/kernel/token-guesses.ts';
import { json, rawJson, readCountedJson, readJson, text, type HttpRequest, type HttpResponse } from './http.ts';

export interface OrderingDeps {
  services: Services;
  limiter: RateLimiter;
  publicUrl: string;
}

export function createOrderingHandlers({ services, limiter, publicUrl }: OrderingDeps) {
  // The options body changes only when staff publish a new set: build its JSON once per version.
  let optionsCache: { version: number; body: Buffer } | null = null;

  /** docs/edge.md#rate-limits-at-a-venue: per client address and per subject (the order, the email). */
  function limit(group: RateGroup, request: HttpRequest, subject?: string): Promise<void> {
    return enforceRateLimit(limiter, group, request.clientAddress, subject);
  }

  return {
    // Counted by no limit (docs/edge.md#options-reads): a refusal cost as much as this kept answer.
    async sleeveOptions(): Promise<HttpResponse> {
      const set = services.options.cached() ?? (await services.options.current());
      if (optionsCache?.version !== set.version) {
        const { version: _version, ...fields } = viewOptions(set, publicUrl);
        optionsCache = { version: set.version, body: Buffer.from(JSON.stringify({ ok: true, ...fields })) };
      }
      return rawJson(200, optionsCache.body);
    },

    async createOrder(request: HttpRequest): Promise<HttpResponse> {
      const input = parseOrderInput(await readCountedJson(request, (email) => limit('create', request, email), (fields) => emailSubject(fields.email)));
      const { order, payToken } = await services.orders.create(input);
      return json(201, orderBody(services.orders.view(order, { payToken })));
    },

    async payOrder(request: HttpRequest, orderNumber: string): Promise<HttpResponse> {
      const body = await readCountedJson(request, (subject) => limit('pay', request, subject), (fields) => orderSubject(orderNumber, fields.t));
      const paid = await openedOrCounted(limiter, 'pay', request.clientAddress, async () => services.orders.pay(orderNumber, parsePayInput(body)));
      return json(200, payResultBody(services.orders.viewPayment(paid)));
    },

    async lookupOrder(request: HttpRequest, orderNumber: string): Promise<HttpResponse> {
      const token = request.query.get('t') ?? '';
      await limit('lookup', request, orderSubject(orderNumber, token));
      const order = await openedOrCounted(limiter, 'lookup', request.clientAddress, () => services.orders.lookup(orderNumber, token));
      return json(200, orderBody(services.orders.view(order, { presentedToken: token })));
    },

    async eventInfo(): Promise<HttpResponse> {
      return text(200, await services.eventInfo.text());
    },
  };
}

export function orderBody(view: OrderView): Record<string, unknown> {
  return {
    ok: true,
    duplicate: false,
    orderNumber: view.orderNumber,
    status: view.status,
    ...(view.hold ?? {}),
    ...(view.reason ? { reason: view.reason } : {}),
    order: view.order,
    previewImage: view.previewImage,
    message: view.message,
    nextAction: view.nextAction,
  };
}

export function payResultBody(result: PayResultView): Record<string, unknown> {
  return {
    ok: true,
    orderNumber: result.view.orderNumber,
    status: result.view.status,
    alreadyPaid: result.alreadyPaid,
    message: result.message,
    nextAction: result.nextAction,
  };
}
