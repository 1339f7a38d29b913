/**
 * What an embedded database's files (the database, its WAL and shared memory) hold in any byte, free pages
 * included: for the suites that check a card number or token never reaches the disk in the clear
 * (docs/platform.md#card-data-at-rest).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** `<file>: <secret>` for each of `secrets` found in a `sleeve.db…` file of `dir`; throws when there is none. */
export function secretsInDatabaseFiles(dir: string, secrets: readonly string[]): string[] {
  const files = readdirSync(dir).filter((file) => file.startsWith('sleeve.db'));
  if (files.length === 0) throw new Error(`no sleeve.db file in ${dir}`);
  const found: string[] = [];
  for (const file of files) {
    const bytes = readFileSync(join(dir, file)).toString('latin1');
    for (const secret of secrets) if (bytes.includes(secret)) found.push(`${file}: ${secret}`);
  }
  return found;
}
