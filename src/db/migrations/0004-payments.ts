/** Payments, the card vault, tokens and idempotency keys (issue 5). Never edit once shipped. */
import type { Kysely } from 'kysely';

export async function up(_db: Kysely<unknown>): Promise<void> {}
