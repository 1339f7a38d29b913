/**
 * The ordered list of migrations: a static provider, so no file-system scan or dynamic import is needed under
 * tsx or a bundler. Names sort in the order they run. Never edit a migration that has shipped; add the next one.
 */
import type { Migration, MigrationProvider } from 'kysely';
import * as orders from './0001-orders.ts';
import * as fulfilment from './0002-fulfilment.ts';

const MIGRATIONS: Record<string, Migration> = {
  '0001-orders': orders,
  '0002-fulfilment': fulfilment,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => MIGRATIONS,
};
