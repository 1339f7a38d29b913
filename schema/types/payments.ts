/**
 * GraphQL types of payments and the vault (docs/graphql.md#root-fields): `Payment` and `TokenInfo`, staff-only through their root
 * fields (schema/fields/payments.ts). A token is shown masked — bin, last four, brand, expiry — never the number or CVC.
 */
import type { PaymentView } from '../../src/payments/payment-service.ts';
import type { TokenView } from '../../src/payments/token-view.ts';
import { builder } from '../builder.ts';

/** Each value under its upper-case name, with its meaning. */
const upper = <T extends string>(meanings: Record<T, string>) =>
  Object.fromEntries(Object.entries<string>(meanings).map(([v, description]) => [v.toUpperCase(), { value: v, description }])) as Record<Uppercase<T>, { value: T; description: string }>;

export const PaymentStatusEnum = builder.enumType('PaymentStatus', {
  description: 'PENDING: the processor has not confirmed the outcome yet; a retry reconciles it without charging twice.',
  values: upper<'succeeded' | 'declined' | 'failed' | 'pending'>({
    succeeded: 'The processor charged it; refundedAt says whether it was refunded since.',
    declined: 'Not charged: the card was declined, or the platform decided DECLINE before calling the processor.',
    failed: 'Not charged: the processor answered an error (PAYMENT_ERROR); retrying may succeed.',
    pending: 'The outcome is not known yet (the processor is being called, or did not answer); a retry or the reconciliation sweep settles it without charging twice.',
  }),
});

export const PaymentMethodKindEnum = builder.enumType('PaymentMethodKind', {
  description: 'How a payment was made, or what a vault token stands for.',
  values: upper<'card' | 'wallet'>({
    card: 'A card: given inline, by a vault token, or entered on the payUrl page; bin, last four and brand are known.',
    wallet: 'A digital wallet confirmation token: no card details are known.',
  }),
});

export const NetworkTokenStatusEnum = builder.enumType('NetworkTokenStatus', {
  description: 'NONE until an upgrade provisions one; PENDING while asynchronous provisioning is due; then ACTIVE.',
  values: {
    NONE: { value: 'NONE', description: 'No network token: none was asked for (upgrade with networkToken.provision true asks).' },
    PENDING: { value: 'PENDING', description: 'Asked for with async true and being provisioned; /token-updated is sent when it is ACTIVE.' },
    ACTIVE: { value: 'ACTIVE', description: 'A network token is provisioned: the network keeps it valid, so payments with this token are accepted even after the card\'s expiry month.' },
  },
});

const PaymentCardRef = builder.objectRef<NonNullable<PaymentView['card']>>('PaymentCard').implement({
  description: 'The card a payment used, masked: never the number.',
  fields: (t) => ({
    bin: t.exposeString('bin', { description: 'The first digits of the card number: 8 for numbers of 16 or more digits, else 6.' }),
    lastFourDigits: t.exposeString('lastFourDigits', { description: 'The last four digits of the card number, to show as "ending in 4242".' }),
    cardBrand: t.exposeString('cardBrand', { description: 'The network, from the leading digits: VISA, MASTERCARD, AMEX, DISCOVER, JCB, DINERS, UNIONPAY or UNKNOWN.' }),
  }),
});

export const PaymentRef = builder.objectRef<PaymentView>('Payment').implement({
  description: 'A payment made through /api/payments or a sleeve order paid by card or wallet. Amounts in the currency\'s minor units (cents for USD; yen for JPY, which has none smaller).',
  // `id` (its own pay_… id, also its global id) comes with the Node interface: schema/types/nodes.ts.
  fields: (t) => ({
    orderId: t.exposeString('orderId', { description: "The merchant's orderId sent to POST /api/payments, or a sleeve order's number for a payment of one." }),
    orderNumber: t.exposeID('orderNumber', { nullable: true, description: 'The sleeve order it paid, if any.' }),
    amount: t.exposeInt('amount', { description: "The amount in the currency's minor units: 100 is $1.00 in USD (a sleeve order's payment is always 100 USD)." }),
    currency: t.exposeString('currency', { description: 'ISO 4217 code, e.g. USD.' }),
    status: t.field({ type: PaymentStatusEnum, description: 'Whether it was charged: SUCCEEDED, DECLINED, FAILED, or PENDING while unknown.', resolve: (p) => p.status }),
    decision: t.exposeString('decision', {
      description: "The platform's decision on the payment, a VendorDecision value: APPROVE unless the customer's email is a sandbox address; only DECLINE stops the charge. Always APPROVE for a sleeve order.",
    }),
    method: t.field({ type: PaymentMethodKindEnum, description: 'Paid by card or by wallet.', resolve: (p) => p.method }),
    createdAt: t.field({ type: 'DateTime', description: 'When the payment was created.', resolve: (p) => new Date(p.createdAt) }),
    refundedAt: t.field({ type: 'DateTime', nullable: true, description: 'When it was refunded in full (refundPayment, or a paid sleeve order cancelled); null while not refunded.', resolve: (p) => (p.refundedAt === null ? null : new Date(p.refundedAt)) }),
    card: t.field({ type: PaymentCardRef, nullable: true, description: 'The card paid with, masked; null for a wallet payment.', resolve: (p) => p.card }),
  }),
});

const TokenAliasRef = builder.objectRef<TokenView['aliases'][number]>('TokenAlias').implement({
  description: "Another name the site gave the token at tokenization (tokenAliases): detokenize and upgrade accept { key, value } in place of the token.",
  fields: (t) => ({
    key: t.exposeString('key', { description: 'The name of the alias, as the site chose it at tokenization.' }),
    value: t.exposeString('value', { description: "The alias itself, the site's own reference for this card." }),
  }),
});

export const TokenInfoRef = builder.objectRef<TokenView>('TokenInfo').implement({
  description: 'What the vault shows of a token: masked card info only (docs/platform.md#card-data-at-rest).',
  // `id` (from the hash the vault keeps of the token, never the token) comes with the Node interface: schema/types/nodes.ts.
  fields: (t) => ({
    kind: t.field({ type: PaymentMethodKindEnum, description: 'CARD for a card token; WALLET for a wallet confirmation token, whose card fields are all null.', resolve: (v) => v.kind }),
    bin: t.exposeString('bin', { nullable: true, description: 'The first 6 to 8 digits of the card number (8 for 16 digits or more); null for a wallet token.' }),
    lastFourDigits: t.exposeString('lastFourDigits', { nullable: true, description: 'The last four digits of the card number; null for a wallet token.' }),
    cardBrand: t.exposeString('cardBrand', { nullable: true, description: 'VISA, MASTERCARD, AMEX, DISCOVER, JCB, DINERS, UNIONPAY or UNKNOWN, from the leading digits; null for a wallet token.' }),
    expirationMonth: t.exposeInt('expirationMonth', { nullable: true, description: 'Expiry month, 1 to 12 (a card update may change it); null for a wallet token.' }),
    expirationYear: t.exposeInt('expirationYear', { nullable: true, description: 'Expiry year, four digits (2000 to 2125); null for a wallet token.' }),
    cardHolderName: t.exposeString('cardHolderName', { nullable: true, description: 'The name on the card as tokenized or last updated; null for a wallet token.' }),
    multiUse: t.exposeBoolean('multiUse', { description: 'False: pays once. True after upgrade.' }),
    used: t.exposeBoolean('used', { description: 'A single-use token already spent on a payment.' }),
    networkTokenStatus: t.field({ type: NetworkTokenStatusEnum, description: 'Whether a network token stands behind this token: NONE, PENDING or ACTIVE (never the network token itself).', resolve: (v) => v.networkTokenStatus as 'NONE' | 'PENDING' | 'ACTIVE' }),
    aliases: t.field({ type: [TokenAliasRef], description: 'The aliases given at tokenization; empty when none.', resolve: (v) => v.aliases }),
    orderNumber: t.exposeID('orderNumber', { nullable: true, description: 'The sleeve order a pay-page token is bound to.' }),
    createdAt: t.field({ type: 'DateTime', description: 'When the token was created (tokenize, the payUrl page or a payment with an inline card).', resolve: (v) => new Date(v.createdAt) }),
  }),
});
