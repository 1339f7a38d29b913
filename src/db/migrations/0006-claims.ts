/** Claims and evidence (issue 7). Never edit once shipped. */
import type { Kysely } from 'kysely';

export async function up(_db: Kysely<unknown>): Promise<void> {}
