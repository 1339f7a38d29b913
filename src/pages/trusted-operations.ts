/**
 * The pages' trusted documents (docs/graphql.md#trusted-documents): the manifest scripts/trusted-documents.ts builds
 * from src/pages/operations/*.graphql. The GraphQL door accepts these documents by hash; the pages learn each
 * operation's hash from /assets/app/operations.js, a module made here from the same manifest, so a page can never
 * send a hash the server does not hold. Read from disk beside this module (the build copies it to dist/), not
 * imported `with { type: 'json' }`: vitest's VM pools (vmThreads, vmForks) load modules in a vm context whose linker
 * refused the JSON module ("Linked modules must use the same context"), so a frontend team's tests could not import
 * the package there.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const manifest = JSON.parse(readFileSync(join(import.meta.dirname, 'operations', 'manifest.json'), 'utf8')) as { operations: TrustedOperation[] };

export interface TrustedOperation {
  /** SHA-256 of `body`, hex: what a page sends as extensions.persistedQuery.sha256Hash. */
  id: string;
  name: string;
  type: string;
  body: string;
}

export const TRUSTED_OPERATIONS: readonly TrustedOperation[] = Object.freeze(manifest.operations.map((o) => Object.freeze({ ...o })));

/** The ES module the pages import (app/graphql.js): each operation's name and hash, nothing else. */
export function operationsModule(): string {
  const hashes = Object.fromEntries(TRUSTED_OPERATIONS.map((o) => [o.name, o.id]));
  return `/** Generated from src/pages/operations/manifest.json (src/pages/trusted-operations.ts): each page operation's hash. */\nexport const OPERATIONS = Object.freeze(${JSON.stringify(hashes, null, 2)});\n`;
}
