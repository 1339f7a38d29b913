/**
 * The pages' trusted documents (docs/graphql.md#trusted-documents): the manifest scripts/trusted-documents.ts builds
 * from src/pages/operations/*.graphql. The GraphQL door accepts these documents by hash; the pages learn each
 * operation's hash from /assets/app/operations.js, a module made here from the same manifest, so a page can never
 * send a hash the server does not hold. Imported as JSON (not read from disk), so the build carries it along.
 */
import manifest from './operations/manifest.json' with { type: 'json' };

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
