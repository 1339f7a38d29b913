/**
 * The end-of-run check of the webhook endpoints (docs/merchant-webhooks.md): every committed notification reached
 * every endpoint of its own site whose event types take it, MERCHANT_ENDPOINT included, whatever was killed between;
 * no endpoint received anything else (another site's notification, or a type it does not take); every signature
 * verified with its endpoint's secret; every claim staff were told is open has its evidence request committed.
 */
import type { AppDatabase } from '../../src/db/database.ts';
import { takes, type ChaosEndpoint } from './endpoints.ts';
import type { Ledger } from './ledger.ts';
import type { ChaosReceiver } from './receiver.ts';

export interface EndpointVerdict {
  problems: string[];
  /** Deliveries that came more than once, summed over the endpoints (at least once: counted, not a loss). */
  duplicates: number;
  /** Deliveries owed to each endpoint, for the figures line. */
  owed: number;
}

/** The endpoint's name in the verdict. */
export const label = (endpoint: ChaosEndpoint) => (endpoint.prefix === '' ? 'MERCHANT_ENDPOINT' : `endpoint ${endpoint.prefix}`);

export async function checkEndpoints({ db }: AppDatabase, ledger: Ledger, receiver: ChaosReceiver, endpoints: ChaosEndpoint[]): Promise<EndpointVerdict> {
  const problems: string[] = [];
  const bootstrap = endpoints.find((endpoint) => endpoint.prefix === '')!.site;
  const outbox = await db.selectFrom('outbox_notifications').select(['id', 'path', 'site_id', 'status', 'subject']).execute();
  let duplicates = 0;
  let owed = 0;
  for (const endpoint of endpoints) {
    const inbox = receiver.at(endpoint.prefix);
    const own = outbox.filter((n) => (n.site_id ?? bootstrap) === endpoint.site && takes(endpoint, n.path));
    owed += own.length;
    for (const n of own) if (!inbox.seen.has(n.id)) problems.push(`notification ${n.id} (${n.path}, site ${endpoint.site}, ${n.status}): committed but never delivered to ${label(endpoint)}`);
    const ownIds = new Set(own.map((n) => n.id));
    for (const id of inbox.seen.keys()) if (!ownIds.has(id)) problems.push(`${label(endpoint)}: received ${id}, which is not its site's or not of a type it takes`);
    duplicates += [...inbox.seen.values()].reduce((sum, times) => sum + times - 1, 0);
  }
  for (const bad of receiver.badSignatures) problems.push(`signature did not verify: ${bad}`);

  const evidenceRequests = new Set(outbox.filter((n) => n.path === '/requestforevidencenotification').map((n) => n.subject));
  for (const [claimId, orderId] of ledger.claims) {
    if (!evidenceRequests.has(claimId)) problems.push(`claim ${claimId} on ${orderId}: opened (200) but no evidence request was committed`);
  }
  return { problems, duplicates, owed };
}
