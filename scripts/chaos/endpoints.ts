/**
 * The sites and webhook endpoints of a chaos phase (docs/merchant-webhooks.md): the bootstrap site, whose
 * `MERCHANT_ENDPOINT` is the receiver's root, with one more endpoint of its own that takes only evidence requests;
 * and a merchant created by `POST /merchants`, with three endpoints: every event type, token updates only, and one
 * that refuses every message's first attempt. Made through the REST API before any fault, so the traffic's
 * notifications of both sites are each owed to a known set of endpoints. One secret is rotated during the faults.
 */
import type { ChaosReceiver } from './receiver.ts';

export interface ChaosSite {
  id: string;
  /** The `authorization` header: basic auth `siteId:apiKey`. */
  auth: string;
}

export interface ChaosEndpoint {
  /** The endpoint's id (none for MERCHANT_ENDPOINT, which is configured, not created). */
  id: string | null;
  /** Where it is on the receiver ('' for MERCHANT_ENDPOINT), and its name in the verdict. */
  prefix: string;
  site: string;
  /** Document 2's paths without the slash; empty takes every type. */
  eventTypes: string[];
}

export interface ChaosTenants {
  bootstrap: ChaosSite;
  merchant: ChaosSite;
  /** Every endpoint a notification is owed to, MERCHANT_ENDPOINT included. */
  endpoints: ChaosEndpoint[];
}

const basic = (id: string, key: string) => `Basic ${Buffer.from(`${id}:${key}`).toString('base64')}`;

async function post(url: string, auth: string, siteId: string, body: unknown): Promise<any> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: auth, 'x-vendor-siteid': siteId, 'api-version': '10.3' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(5_000),
  });
  const answer = await response.json();
  if (!response.ok) throw new Error(`chaos: POST ${new URL(url).pathname} answered ${response.status} ${JSON.stringify(answer)}`);
  return answer;
}

/** Creates the merchant and the endpoints through `base`, and registers each endpoint with the receiver. */
export async function setUpTenants(base: string, bootstrap: { id: string; apiKey: string }, receiver: ChaosReceiver): Promise<ChaosTenants> {
  const bootstrapSite = { id: bootstrap.id, auth: basic(bootstrap.id, bootstrap.apiKey) };
  const created = await post(`${base}/merchants`, bootstrapSite.auth, bootstrap.id, { merchantId: 'm-chaos', name: 'Chaos Shop', defaultMerchantCategoryCode: '5411' });
  const merchant = { id: String(created.id), auth: basic(String(created.id), String(created.apiKey)) };
  const endpoints: ChaosEndpoint[] = [{ id: null, prefix: '', site: bootstrap.id, eventTypes: [] }];
  const add = async (site: ChaosSite, prefix: string, eventTypes: string[], failFirst = false) => {
    const endpoint = await post(`${base}/v1/webhooks/endpoints`, site.auth, site.id, { url: receiver.url + prefix, description: `chaos ${prefix}`, eventTypes });
    receiver.register(prefix, { secret: String(endpoint.secret), failFirst });
    endpoints.push({ id: String(endpoint.id), prefix, site: site.id, eventTypes });
  };
  await add(bootstrapSite, '/b-evidence', ['requestforevidencenotification']);
  await add(merchant, '/m-all', []);
  await add(merchant, '/m-tokens', ['token-updated']);
  await add(merchant, '/m-flaky', [], true);
  return { bootstrap: bootstrapSite, merchant, endpoints };
}

/**
 * The merchant rotates the secret of its endpoint at `prefix` in the middle of the traffic, through any instance (one
 * may be down: tried again until one answers). The receiver then wants the new secret's signature on every request
 * signed from two seconds on, whichever instance signs it.
 */
export async function rotateSecret(any: () => string, tenants: ChaosTenants, prefix: string, receiver: ChaosReceiver): Promise<void> {
  const endpoint = tenants.endpoints.find((e) => e.prefix === prefix)!;
  const deadline = Date.now() + 20_000;
  for (;;) {
    try {
      const rotated = await post(`${any()}/v1/webhooks/endpoints/${endpoint.id}/rotate-secret`, tenants.merchant.auth, tenants.merchant.id, {});
      receiver.rotated(prefix, String(rotated.secret));
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((done) => setTimeout(done, 300));
    }
  }
}

/** Whether `endpoint` takes a notification POSTed to `path` (e.g. `/token-updated`). */
export const takes = (endpoint: ChaosEndpoint, path: string): boolean => endpoint.eventTypes.length === 0 || endpoint.eventTypes.includes(path.slice(1));
