/**
 * Object identity (docs/graphql.md#object-identity): which objects are Relay Nodes, what each one's id is made of
 * (schema/global-ids.ts), and who may fetch it again with `node(id)`. The rule: `node` answers a caller exactly what
 * the type's own root field would.
 *  - An Order is fetched by id for staff only. Its id names the order, and an order number alone is no credential:
 *    anyone else gets null, as `order(orderNumber, payToken)` answers a wrong token, and keeps using that field.
 *  - Every staff object answers staff only; anyone else gets UNAUTHORIZED, as `payment(id)` or `account` does.
 */
import type { ObjectRef, SchemaTypes } from '@pothos/core';
import { resolveNodes } from '@pothos/plugin-relay';
import type { GraphQLResolveInfo } from 'graphql';
import { builder, notAnIdError, staffOnlyError } from '../builder.ts';
import type { GraphQLContext } from '../context.ts';
import { compoundKey, decodeGlobalId, keyParts, type DecodedId } from '../global-ids.ts';
import { TOKEN_HASH } from '../../src/payments/tokenization-service.ts';
import { ClaimRef, NotificationRef } from './notifications.ts';
import { OrderRef } from './order.ts';
import { PaymentRef, TokenInfoRef } from './payments.ts';
import {
  AccountRef,
  AccountRequestRef,
  ItemListingRequestRef,
  MerchantRef,
  OrderDecisionRef,
  ThreeDsEnrollmentRef,
} from './platform.ts';
import { WebhookDeliveryRef, WebhookEndpointRef } from './webhooks.ts';

type Types = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : SchemaTypes;

interface Identity<T> {
  /** What a caller without the staff token gets: null (as `order` with a wrong token) or UNAUTHORIZED. */
  otherwise: 'null' | 'unauthorized';
  /** The key of an object (its id encodes it). */
  key(value: T): string;
  /** Whether a key has the shape this type gives out, checked before any lookup. */
  valid(key: string): boolean;
  load(key: string, context: GraphQLContext): Promise<T | null>;
}

const identities = new Map<string, Identity<never>>();

function node<T>(ref: ObjectRef<Types, T>, description: string, identity: Identity<T>): void {
  identities.set(ref.name, identity as Identity<never>);
  builder.nodeRef(ref, {
    id: { description, resolve: (value: T) => identity.key(value) },
    loadWithoutCache: (key: string, context: GraphQLContext) => identity.load(key, context),
  });
}

const digits = (key: string) => /^[0-9]{1,18}$/u.test(key);
const plain = (key: string) => key.length > 0 && key.length <= 200;
/** A record id with its kind's prefix: randomId writes a UUID after it; older rows may hold any short word. */
const prefixed = (prefix: string) => (key: string) => new RegExp(`^${prefix}[A-Za-z0-9_-]{1,100}$`, 'u').test(key);

node(OrderRef, 'Global id, from the order number. node(id) answers staff only; use order(orderNumber, payToken).', {
  otherwise: 'null',
  key: (order) => order.orderNumber,
  valid: digits,
  load: async (n, { services }) => {
    const order = await services.staff.find(n);
    return order && services.orders.view(order);
  },
});

node(PaymentRef, 'The payment id (pay_…), also its global id.', {
  otherwise: 'unauthorized',
  key: (payment) => payment.id,
  valid: plain,
  load: (id, { services }) => services.payments.find(id),
});

node(MerchantRef, "The merchant's site id (site_…), also its global id.", {
  otherwise: 'unauthorized',
  key: (merchant) => merchant.id,
  valid: plain,
  load: (id, { services }) => services.platform.findMerchant(id),
});

node(ThreeDsEnrollmentRef, 'Global id, from the merchant and the requestId.', {
  otherwise: 'unauthorized',
  key: (e) => compoundKey(e.merchantId, e.requestId),
  valid: (key) => keyParts(key, 2) !== null,
  load: async (key, { services }) => {
    const [merchantId, requestId] = keyParts(key, 2)!;
    return (await services.platform.enrollmentsOf(merchantId!)).find((e) => e.requestId === requestId) ?? null;
  },
});

node(AccountRef, "Global id, from the site and the account id (an account id is one site's).", {
  otherwise: 'unauthorized',
  key: (a) => compoundKey(a.siteId, a.accountId),
  valid: (key) => keyParts(key, 2) !== null,
  load: (key, { services }) => {
    const [siteId, accountId] = keyParts(key, 2)!;
    return services.platform.account({ siteId: siteId!, accountId: accountId! });
  },
});

/** A decided request, found in its account's history (the latest 200 requests of that account). */
function decidedRequest(kind: 'item-listing' | null) {
  return async (key: string, { services }: GraphQLContext) => {
    const [siteId, accountId, id] = keyParts(key, 3)!;
    const account = await services.platform.account({ siteId: siteId!, accountId: accountId! });
    return account?.decisions.find((d) => d.id === id && (kind === null || d.kind === kind)) ?? null;
  };
}

node(AccountRequestRef, 'Global id, from the site, the account and the stored request.', {
  otherwise: 'unauthorized',
  key: (r) => compoundKey(r.siteId, r.accountId, r.id),
  valid: (key) => keyParts(key, 3) !== null,
  load: decidedRequest(null),
});

node(ItemListingRequestRef, 'Global id, from the site, the account and the stored request.', {
  otherwise: 'unauthorized',
  key: (r) => compoundKey(r.siteId, r.accountId, r.id),
  valid: (key) => keyParts(key, 3) !== null,
  load: decidedRequest('item-listing'),
});

node(ClaimRef, 'Global id, from the claim id.', {
  otherwise: 'unauthorized',
  key: (claim) => String(claim.claimId),
  valid: digits,
  load: (claimId, { services }) => services.disputes.claims.find(Number(claimId)),
});

node(NotificationRef, 'Its own id (msg_…), also its global id, its webhook-id and the uniqueMessageId of an evidence request; kept on redelivery.', {
  otherwise: 'unauthorized',
  key: (n) => n.id,
  valid: prefixed('msg_'),
  load: (id, { services }) => services.notifications.find(id),
});

// The key is the hash the vault keeps: it finds the token's row, yet neither is nor reveals the token.
node(TokenInfoRef, 'Global id, from the hash the vault keeps of the token: names the token without revealing it.', {
  otherwise: 'unauthorized',
  key: (v) => v.tokenHash,
  valid: (hash) => TOKEN_HASH.test(hash),
  load: (hash, { services }) => services.payments.tokens.infoByHash(hash),
});

node(OrderDecisionRef, 'Global id, from the orderId (a sleeve order number or a payment id): one decision per order or payment.', {
  otherwise: 'unauthorized',
  key: (d) => d.orderId,
  valid: (orderId) => /^[0-9]{1,15}$/u.test(orderId) || prefixed('pay_')(orderId),
  load: (orderId, { services }) => services.platform.orderDecision(orderId),
});

node(WebhookEndpointRef, 'Global id, from the endpoint id (ep_…, endpointId, as REST shows it).', {
  otherwise: 'unauthorized',
  key: (e) => e.id,
  valid: prefixed('ep_'),
  load: (id, { services }) => services.webhooks.endpoint(id),
});

node(WebhookDeliveryRef, 'Global id, from the delivery id (dlv_…, deliveryId): one message to one endpoint.', {
  otherwise: 'unauthorized',
  key: (d) => d.id,
  valid: prefixed('dlv_'),
  load: (id, { services }) => services.webhooks.delivery(id),
});

/** At most this many ids in one `nodes`: each may cost a lookup. */
export const NODES_MAX = 100;

/**
 * The objects for `ids`, in order: each one an object, null (unknown, or an Order for a caller who is not staff),
 * or an Error value that graphql-js reports at that item's path, so one refused id fails only itself.
 */
export async function fetchNodes(ids: readonly string[], context: GraphQLContext, info: GraphQLResolveInfo): Promise<unknown[]> {
  const results: unknown[] = ids.map(() => null);
  const wanted: Array<{ index: number; id: DecodedId }> = [];
  ids.forEach((raw, index) => {
    const decoded = decodeGlobalId(raw);
    const identity = decoded && identities.get(decoded.typename);
    if (!decoded || !identity) {
      results[index] = notAnIdError(raw);
    } else if (!context.viewer.isStaff) {
      // Checked before the key is read or anything looked up: the answer says nothing about the object.
      results[index] = identity.otherwise === 'null' ? null : staffOnlyError();
    } else if (!identity.valid(decoded.id)) {
      results[index] = notAnIdError(raw);
    } else {
      wanted.push({ index, id: decoded });
    }
  });
  if (wanted.length > 0) {
    // Pothos' loader: one lookup per distinct id in the request, each object branded with its type for Node.
    const found = await resolveNodes(builder, context, info, wanted.map((w) => w.id));
    const values = await Promise.all(found);
    wanted.forEach((w, i) => (results[w.index] = values[i] ?? null));
  }
  return results;
}
