/**
 * The decision platform's REST paths (document 3 §4, at the root; docs/platform.md#where-it-is-served): merchants, 3DS enrollment and its
 * status, item-listing and profile-access decisions. Every failure answers the platform error body (inStyle).
 */
import { parseMerchantInput } from '../src/risk/merchant-rules.ts';
import { parseEnrollmentRequest } from '../src/risk/three-ds.ts';
import type { EnrollmentView } from '../src/risk/merchant-service.ts';
import type { RestDeps } from './rest-deps.ts';
import { json, type HttpRequest } from './http.ts';
import { platformCall, platformSite } from './platform-headers.ts';
import { inStyle } from './platform-http.ts';
import type { Route } from './routes.ts';

export function createPlatformRoutes({ services, logger }: RestDeps): Route[] {
  const { platform, sites } = services;

  /** Document 3 §2 "Merchant creation response" plus the new site's apiKey, shown once (docs/platform.md#credentials). */
  async function createMerchant(request: HttpRequest) {
    const { site, body } = await platformCall(request, sites);
    const { merchant, apiKey } = await platform.createMerchant(site, parseMerchantInput(body));
    return json(200, {
      defaultMerchantCategoryCode: merchant.defaultMerchantCategoryCode,
      id: merchant.id,
      ...(merchant.merchantAccountCreation !== undefined ? { merchantAccountCreation: merchant.merchantAccountCreation } : {}),
      merchantId: merchant.merchantId,
      name: merchant.name,
      apiKey,
    });
  }

  /** docs/platform.md#credentials: a lost or leaked key is replaced; no body. */
  async function replaceKey(request: HttpRequest, merchantId: string) {
    const site = await platformSite(request, sites, { bodyless: true });
    return json(200, await platform.replaceMerchantKey(site, merchantId));
  }

  async function enroll(request: HttpRequest, merchantId: string) {
    const { site, body } = await platformCall(request, sites);
    const enrollment = await platform.enroll(site, merchantId, parseEnrollmentRequest(body));
    return json(200, { requestId: enrollment.requestId, status: enrollment.status });
  }

  async function enrollmentStatus(request: HttpRequest, merchantId: string, requestId: string) {
    const site = await platformSite(request, sites);
    return json(200, enrollmentBody(await platform.enrollment(site, merchantId, requestId)));
  }

  const decision = (kind: 'item-listing' | 'profile-access') =>
    async function decide(request: HttpRequest, eventId: string) {
      const { site, body } = await platformCall(request, sites);
      return json(200, await platform.decide(site, kind, eventId, body));
    };

  const styled = (handler: Route['handler']) => inStyle('platform', logger, handler);
  return [
    { method: 'POST', path: '/merchants', handler: styled(createMerchant) },
    { method: 'POST', path: '/merchants/:id/api-key', handler: styled(replaceKey) },
    { method: 'POST', path: '/merchants/:id/3ds-recommendation', handler: styled(enroll) },
    { method: 'GET', path: '/merchants/:id/3ds-recommendation/:requestId', handler: styled(enrollmentStatus) },
    { method: 'POST', path: '/v2/accounts/item-listing/:id', handler: styled(decision('item-listing')) },
    { method: 'POST', path: '/v2/accounts/profile-access/:id', handler: styled(decision('profile-access')) },
  ];
}

/** docs/platform.md#3ds-enrollment: PENDING, then COMPLETED, or FAILED with a reason. */
function enrollmentBody(e: EnrollmentView) {
  return {
    requestId: e.requestId,
    merchantId: e.merchantId,
    status: e.status,
    ...(e.reason ? { reason: e.reason } : {}),
    offerings: e.offerings,
    createdAt: new Date(e.createdAt).toISOString(),
    ...(e.completedAt !== null ? { completedAt: new Date(e.completedAt).toISOString() } : {}),
  };
}
