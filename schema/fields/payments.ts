/** Staff root fields of payments and the vault (docs/graphql.md#root-fields): payment(id), token(token), refundPayment(id). */
import { builder } from '../builder.ts';
import { PaymentRef, TokenInfoRef } from '../types/payments.ts';

const staffOnly = { staff: true } as const;

builder.queryField('payment', (t) =>
  t.field({
    type: PaymentRef,
    nullable: true,
    authScopes: staffOnly,
    description: 'Staff: a payment by id; null when unknown.',
    args: { id: t.arg.id({ required: true, description: 'The payment id (pay_…), as POST /api/payments answered it; also its global id.' }) },
    resolve: (_root, { id }, { services }) => services.payments.find(String(id)),
  }),
);

builder.queryField('token', (t) =>
  t.field({
    type: TokenInfoRef,
    nullable: true,
    authScopes: staffOnly,
    description: 'Staff: masked card info of a vault token, its network token status and aliases; never the full number.',
    args: { token: t.arg.string({ required: true, description: 'The vault token itself, as tokenize or the payUrl page issued it (not an alias); the answer is null when the vault has no such token.' }) },
    resolve: (_root, { token }, { services }) => services.payments.tokens.info(token),
  }),
);

builder.mutationField('refundPayment', (t) =>
  t.field({
    type: PaymentRef,
    authScopes: staffOnly,
    description: 'Staff: refunds a succeeded payment in full (document 1: all payments will be refunded). Refunding again changes nothing.',
    args: { id: t.arg.id({ required: true, description: 'The payment id (pay_…) to refund; also its global id.' }) },
    resolve: (_root, { id }, { services }) => services.payments.refund(String(id)),
  }),
);
