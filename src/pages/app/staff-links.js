/**
 * The deep links notification dashboards point at (src/notifications/bodies.ts): #/orders/{n},
 * #/accounts/{id}?site={siteId}, #/item-listings/{id}?site={siteId}, #/claims/{id}. A sleeve order is focused in the queue; an
 * account is summed up from the staff `account` query (by site and id: an account id is one site's,
 * docs/platform.md#accounts-per-site; a link without a site sums up every site's account with that id); the rest
 * name the item and the GraphQL field that handles it.
 */

const ELSEWHERE = {
  'item-listings': (id, siteId) =>
    `Item listing ${id}${siteId ? ` of site ${siteId}` : ''}: this console has no item listing view yet; decide it with the GraphQL mutation decideItemListing${siteId ? ` and its siteId` : ''}.`,
  claims: (id) => `Claim ${id}: this console has no claim view yet; list claims with the GraphQL query claims.`,
};

const CHANGE = 'Change it with the GraphQL mutation reviewAccount.';
const summary = ({ status, reasons }) => `${status}${reasons.length ? ` (${reasons.join(', ')})` : ''}`;

async function account(api, id, siteId) {
  try {
    if (siteId) {
      const { account: found } = await api.request('StaffAccount', { id, site: siteId });
      return found ? `Account ${id} of site ${siteId}: ${summary(found)}. ${CHANGE}` : `No account ${id} of site ${siteId} is known.`;
    }
    const { accounts } = await api.request('StaffAccounts', { id });
    if (accounts.length === 0) return `No account ${id} is known.`;
    if (accounts.length === 1) return `Account ${id}: ${summary(accounts[0])}. ${CHANGE}`;
    const each = accounts.map((a) => `site ${a.siteId}: ${summary(a)}`).join('; ');
    return `Account ${id} is held by ${accounts.length} sites (${each}). Change one with the GraphQL mutation reviewAccount and its siteId.`;
  } catch {
    return `Account ${id}: read it with the GraphQL query account(accountId: "${id}"${siteId ? `, siteId: "${siteId}"` : ''}).`;
  }
}

/** The note for a deep link, or null when the link needs none (an order that the queue could focus). */
export async function describeLink({ api, queue }, kind, id, params = new URLSearchParams()) {
  if (!id) return null;
  if (kind === 'orders') {
    // Sleeve order numbers are digits; the order status notification links a platform order id instead.
    if (!/^\d+$/u.test(id)) return `Platform order ${id}: this console has no view of platform orders yet; decide it with the GraphQL mutation decideOrder.`;
    return queue.focusOrder(id) ? null : `There is no order ${id}: the console holds every order, collected and cancelled ones too. Check the number.`;
  }
  if (kind === 'accounts') return account(api, id, params.get('site'));
  return ELSEWHERE[kind]?.(id, params.get('site')) ?? null;
}
