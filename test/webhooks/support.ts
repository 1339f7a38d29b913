/** Shared steps of the merchant webhook tests: a gateway, merchant sites, endpoints at real receivers, REST calls. */
import { expect } from 'vitest';
import { createManualClock } from '../../src/kernel/clock.ts';
import { createLogger } from '../../src/kernel/logger.ts';
import { basicAuth, testGateway, type RestResult, type TestGateway } from '../support/gateway.ts';
import { eventually, startReceiver, type Receiver } from '../support/receiver.ts';
import { createMerchant } from '../platform/support.ts';

export interface Site {
  id: string;
  apiKey: string;
  auth: Record<string, string>;
}

/** A gateway with no MERCHANT_ENDPOINT unless given one; the clock starts at the wall time (signatures' tolerance). */
export async function webhookGateway(env: Record<string, string> = {}, logLines?: string[]): Promise<TestGateway> {
  const logger = logLines ? createLogger('info', (line) => void logLines.push(line)) : undefined;
  return testGateway({ clock: createManualClock(Date.now()), env: { NOTIFY_RETRY_SCHEDULE: '0,5s,5m', ...env }, ...(logger ? { logger } : {}) });
}

export const bootstrapSite = (t: TestGateway): Site => ({ id: t.siteId, apiKey: 'test-api-key', auth: { authorization: t.siteAuthorization } });

let merchants = 0;
/** A merchant site created by POST /merchants, with its own site id and API key. */
export async function merchantSite(t: TestGateway): Promise<Site> {
  merchants += 1;
  const created = await createMerchant(t, { merchantId: `m-${merchants}`, name: `Shop ${merchants}` });
  return { id: created.id, apiKey: created.apiKey, auth: { authorization: basicAuth(created.id, created.apiKey) } };
}

export const hooks = (t: TestGateway, site: Site, method: string, path = '', body?: unknown): Promise<RestResult> =>
  t.rest(method, `/v1/webhooks/endpoints${path}`, body, site.auth);

/** Registers an endpoint at a fresh receiver; returns both and the secret. */
export async function endpointAt(t: TestGateway, site: Site, fields: Record<string, unknown> = {}): Promise<{ id: string; secret: string; receiver: Receiver }> {
  const receiver = await startReceiver();
  const res = await hooks(t, site, 'POST', '', { url: receiver.url, ...fields });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { id: res.body.id, secret: res.body.secret, receiver };
}

/** Fires due timers until `check` holds. */
export const turnUntil = <T>(t: TestGateway, check: () => Promise<T> | T, ms = 5_000) =>
  eventually(async () => {
    await t.clock.advance(0);
    return check();
  }, ms);

export async function deliveriesOf(t: TestGateway, site: Site, endpointId: string, status?: string) {
  const res = await hooks(t, site, 'GET', `/${endpointId}/deliveries${status ? `?status=${status}` : ''}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as Array<{ id: string; webhookId: string; eventType: string; status: string; attempts: Array<{ statusCode: number | null; error: string | null }> }>;
}

/**
 * Waits until every request the endpoint's receiver got is recorded as an attempt. Call it before moving the clock:
 * moved past the lease of an attempt still being recorded, the delivery would go out again (at least once, by design).
 */
export async function recorded(t: TestGateway, site: Site, at: { id: string; receiver: Receiver }): Promise<void> {
  await eventually(async () => {
    const attempts = (await deliveriesOf(t, site, at.id)).reduce((n, d) => n + d.attempts.length, 0);
    return attempts === at.receiver.requests.length;
  });
}
