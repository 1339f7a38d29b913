/** Claims and evidence (issue 7): table shapes as kysely sees them (migration 0006). */

// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface ClaimTables {}
