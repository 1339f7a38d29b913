/**
 * Payments and tokenization (document 3 §4, docs/platform.md): /api/payments (site basic auth, platform error body),
 * the tokenization operations (site basic auth, `{ message }` error body), a sandbox wallet confirmation for
 * /api/payments, and the pay page's two paths, authorized by the order's payToken instead of a site key — a
 * browser must never hold one — answering document 1's Error body.
 */
import { DomainError } from '../src/kernel/errors.ts';
import { enforceRateLimit, orderSubject } from '../src/kernel/rate-limiter.ts';
import { openedOrCounted } from '../src/kernel/token-guesses.ts';
import type { Site } from '../src/sites/site-service.ts';
import type { RestDeps } from './rest-deps.ts';
import { json, readCountedJson, readJson, type HttpRequest, type HttpResponse } from './http.ts';
import { inStyle, requireSite } from './platform-http.ts';
import type { Route } from './routes.ts';

export function createPaymentsRoutes({ services, logger, limiter }: RestDeps): Route[] {
  const { payments, sites, orders } = services;
  const { tokens } = payments;

  /** A site-authenticated JSON operation: the site, then the body (401 comes before any body check). */
  const siteCall = (operation: (site: Site, body: unknown, request: HttpRequest) => Promise<HttpResponse>) =>
    async function call(request: HttpRequest): Promise<HttpResponse> {
      const site = await requireSite(request, sites);
      return operation(site, await readJson(request), request);
    };

  /** The pay page's order, by the payToken in the body (`t`, as in PayInput; `payToken` is accepted too). */
  async function payPageOrder(request: HttpRequest, orderNumber: string) {
    // A pay step of the order, counted like paying it (docs/edge.md#rate-limits-at-a-venue), against the token given.
    const tokenOf = (fields: Record<string, unknown>) => fields.t ?? fields.payToken;
    const body = await readCountedJson(request, (subject) => enforceRateLimit(limiter, 'pay', request.clientAddress, subject), (fields) => orderSubject(orderNumber, tokenOf(fields)));
    const order = await openedOrCounted(limiter, 'pay', request.clientAddress, async () => {
      const t = typeof body === 'object' && body !== null ? tokenOf(body as Record<string, unknown>) : undefined;
      if (typeof t !== 'string') throw new DomainError('bad_request', 't (the payToken) is required.', { field: 't' });
      return orders.lookup(orderNumber, t);
    });
    return { order, body };
  }

  const platform = (handler: Route['handler']) => inStyle('platform', logger, handler);
  const tokenization = (handler: Route['handler']) => inStyle('tokenization', logger, handler);

  return [
    {
      method: 'POST',
      path: '/api/payments',
      handler: platform(
        siteCall(async (site, body, request) => {
          // Document 3: a payment made (or replayed for its Idempotency-Key) is 201 Created.
          return json(201, await payments.create(site, body, request.headers['idempotency-key']));
        }),
      ),
    },
    { method: 'POST', path: '/v1/tokenization/tokenize', handler: tokenization(siteCall(async (site, body) => json(200, await tokens.tokenize(site, body)))) },
    { method: 'POST', path: '/v1/tokenization/detokenize', handler: tokenization(siteCall(async (site, body) => json(200, await tokens.detokenize(site, body)))) },
    { method: 'POST', path: '/v1/tokenization/upgrade', handler: tokenization(siteCall(async (site, body) => json(200, await tokens.upgrade(site, body)))) },
    { method: 'POST', path: '/v1/account-updater/card/update', handler: tokenization(siteCall(async (site, body) => json(200, await tokens.updateCard(site, body)))) },
    {
      // The sandbox wallet for /api/payments `wallet` (a real wallet's confirmation comes from its own SDK).
      method: 'POST',
      path: '/v1/sandbox/wallet-confirmation',
      handler: tokenization(async (request) => json(200, { token: await tokens.walletConfirmation({ siteId: (await requireSite(request, sites)).siteId }) })),
    },
    {
      method: 'POST',
      path: '/api/orders/:orderNumber/card-token',
      async handler(request, orderNumber) {
        const { order, body } = await payPageOrder(request, orderNumber!);
        return json(200, await tokens.tokenizeForOrder(order, body));
      },
    },
    {
      method: 'POST',
      path: '/api/orders/:orderNumber/wallet-token',
      async handler(request, orderNumber) {
        const { order } = await payPageOrder(request, orderNumber!);
        return json(200, { token: await tokens.walletConfirmation({ order }) });
      },
    },
  ];
}
