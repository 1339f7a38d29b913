/**
 * The deep links notification dashboards point at (src/notifications/bodies.ts): #/orders/{n}, #/accounts/{id},
 * #/item-listings/{id}, #/claims/{id}. A sleeve order is focused in the queue; an account is summed up from the
 * staff `account` query; the rest name the item and the GraphQL field that handles it.
 */

const ELSEWHERE = {
  'item-listings': (id) => `Item listing ${id}: this console has no item listing view yet; decide it with the GraphQL mutation decideItemListing.`,
  claims: (id) => `Claim ${id}: this console has no claim view yet; list claims with the GraphQL query claims.`,
};

async function account(api, id) {
  try {
    const { account: found } = await api.request('query($id: ID!) { account(accountId: $id) { status reasons } }', { id });
    if (!found) return `No account ${id} is known.`;
    const reasons = found.reasons.length ? ` (${found.reasons.join(', ')})` : '';
    return `Account ${id}: ${found.status}${reasons}. Change it with the GraphQL mutation reviewAccount.`;
  } catch {
    return `Account ${id}: read it with the GraphQL query account(accountId: "${id}").`;
  }
}

/** The note for a deep link, or null when the link needs none (an order that the queue could focus). */
export async function describeLink({ api, queue }, kind, id) {
  if (!id) return null;
  if (kind === 'orders') {
    // Sleeve order numbers are digits; the order status notification links a platform order id instead.
    if (!/^\d+$/u.test(id)) return `Platform order ${id}: this console has no view of platform orders yet; decide it with the GraphQL mutation decideOrder.`;
    return queue.focusOrder(id) ? null : `Order ${id} is not among the orders this console has seen (it may have been collected or cancelled earlier).`;
  }
  if (kind === 'accounts') return account(api, id);
  return ELSEWHERE[kind]?.(id) ?? null;
}
