/** Merchants, 3DS enrollment, accounts and decisions (issue 6): table shapes as kysely sees them (migration 0005). */

// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface PlatformTables {}
