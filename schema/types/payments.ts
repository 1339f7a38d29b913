/**
 * GraphQL types of payments and the vault (docs/graphql.md#root-fields): `Payment` and `TokenInfo`, staff-only through their root
 * fields (schema/fields/payments.ts). A token is shown masked — bin, last four, brand, expiry — never the number or CVC.
 */
import type { PaymentView } from '../../src/payments/payment-service.ts';
import type { TokenView } from '../../src/payments/token-view.ts';
import { builder } from '../builder.ts';

const upper = <T extends string>(values: readonly T[]) =>
  Object.fromEntries(values.map((v) => [v.toUpperCase(), { value: v }])) as Record<Uppercase<T>, { value: T }>;

export const PaymentStatusEnum = builder.enumType('PaymentStatus', {
  description: 'PENDING: the processor has not confirmed the outcome yet; a retry reconciles it without charging twice.',
  values: upper(['succeeded', 'declined', 'failed', 'pending'] as const),
});

export const PaymentMethodKindEnum = builder.enumType('PaymentMethodKind', { values: upper(['card', 'wallet'] as const) });

export const NetworkTokenStatusEnum = builder.enumType('NetworkTokenStatus', {
  description: 'NONE until an upgrade provisions one; PENDING while asynchronous provisioning is due; then ACTIVE.',
  values: { NONE: { value: 'NONE' }, PENDING: { value: 'PENDING' }, ACTIVE: { value: 'ACTIVE' } },
});

const PaymentCardRef = builder.objectRef<NonNullable<PaymentView['card']>>('PaymentCard').implement({
  description: 'The card a payment used, masked: never the number.',
  fields: (t) => ({ bin: t.exposeString('bin'), lastFourDigits: t.exposeString('lastFourDigits'), cardBrand: t.exposeString('cardBrand') }),
});

export const PaymentRef = builder.objectRef<PaymentView>('Payment').implement({
  description: 'A payment made through /api/payments or a sleeve order paid by card or wallet. Amounts in the currency\'s minor units (cents for USD; yen for JPY, which has none smaller).',
  // `id` (its own pay_… id, also its global id) comes with the Node interface: schema/types/nodes.ts.
  fields: (t) => ({
    orderId: t.exposeString('orderId'),
    orderNumber: t.exposeID('orderNumber', { nullable: true, description: 'The sleeve order it paid, if any.' }),
    amount: t.exposeInt('amount'),
    currency: t.exposeString('currency'),
    status: t.field({ type: PaymentStatusEnum, resolve: (p) => p.status }),
    decision: t.exposeString('decision'),
    method: t.field({ type: PaymentMethodKindEnum, resolve: (p) => p.method }),
    createdAt: t.field({ type: 'DateTime', resolve: (p) => new Date(p.createdAt) }),
    refundedAt: t.field({ type: 'DateTime', nullable: true, resolve: (p) => (p.refundedAt === null ? null : new Date(p.refundedAt)) }),
    card: t.field({ type: PaymentCardRef, nullable: true, resolve: (p) => p.card }),
  }),
});

const TokenAliasRef = builder.objectRef<TokenView['aliases'][number]>('TokenAlias').implement({
  fields: (t) => ({ key: t.exposeString('key'), value: t.exposeString('value') }),
});

export const TokenInfoRef = builder.objectRef<TokenView>('TokenInfo').implement({
  description: 'What the vault shows of a token: masked card info only (docs/platform.md#card-data-at-rest).',
  // `id` (from the hash the vault keeps of the token, never the token) comes with the Node interface: schema/types/nodes.ts.
  fields: (t) => ({
    kind: t.field({ type: PaymentMethodKindEnum, resolve: (v) => v.kind }),
    bin: t.exposeString('bin', { nullable: true }),
    lastFourDigits: t.exposeString('lastFourDigits', { nullable: true }),
    cardBrand: t.exposeString('cardBrand', { nullable: true }),
    expirationMonth: t.exposeInt('expirationMonth', { nullable: true }),
    expirationYear: t.exposeInt('expirationYear', { nullable: true }),
    cardHolderName: t.exposeString('cardHolderName', { nullable: true }),
    multiUse: t.exposeBoolean('multiUse', { description: 'False: pays once. True after upgrade.' }),
    used: t.exposeBoolean('used', { description: 'A single-use token already spent on a payment.' }),
    networkTokenStatus: t.field({ type: NetworkTokenStatusEnum, resolve: (v) => v.networkTokenStatus as 'NONE' | 'PENDING' | 'ACTIVE' }),
    aliases: t.field({ type: [TokenAliasRef], resolve: (v) => v.aliases }),
    orderNumber: t.exposeID('orderNumber', { nullable: true, description: 'The sleeve order a pay-page token is bound to.' }),
    createdAt: t.field({ type: 'DateTime', resolve: (v) => new Date(v.createdAt) }),
  }),
});
