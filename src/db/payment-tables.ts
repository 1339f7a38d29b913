/** Payments, the card vault, tokens and idempotency keys (issue 5): table shapes as kysely sees them (migration 0004). */

// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface PaymentTables {}
