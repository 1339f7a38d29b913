/**
 * Trusted documents and automatic persisted queries (docs/graphql.md#trusted-documents): which documents a caller
 * may run, by hash or as text. One object answers for every way in — yoga's pipeline (use-trusted-documents.ts),
 * the fast JSON path and graphql-ws — so they cannot disagree.
 *
 * - The manifest (src/pages/operations/manifest.json): the pages' operations, accepted by hash from anyone.
 * - APQ (Apollo's automatic persisted queries): a client sends the hash alone; an unknown hash answers
 *   PersistedQueryNotFound and the client sends the text with the hash, which is checked (SHA-256) and remembered
 *   here, in memory, in a bounded least-recently-used store (per process: another instance asks once more).
 * - GRAPHQL_TRUSTED_DOCUMENTS: `allow` (the default) also runs any text; `only` runs text — and so registers APQ
 *   hashes — for staff alone (`Authorization: Bearer ADMIN_TOKEN`, GraphiQL), and everyone else gets exactly the
 *   manifest.
 */
import { createHash } from 'node:crypto';
import { createGraphQLError } from 'graphql-yoga';
import type { GraphQLError } from 'graphql';

export type TrustedDocumentsMode = 'allow' | 'only';

export interface TrustedDocumentsOptions {
  mode: TrustedDocumentsMode;
  /** The manifest's operations: `id` is the SHA-256 (hex) of `body`. */
  operations: readonly { id: string; body: string }[];
  /** True for the staff token (an Authorization value: HTTP header or connectionParams). */
  isStaff(authorization: string | null | undefined): boolean;
  /** Documents APQ remembers, at most. @default 1000 */
  apqMaxEntries?: number;
  /** Characters of text APQ remembers, at most, all documents together. @default 4 MiB */
  apqMaxChars?: number;
}

/** A persisted query's hash in a request's extensions (APQ's shape, version 1), or undefined. */
export function persistedHashOf(extensions: unknown): string | undefined {
  if (typeof extensions !== 'object' || extensions === null) return undefined;
  const persisted = (extensions as { persistedQuery?: unknown }).persistedQuery;
  if (typeof persisted !== 'object' || persisted === null) return undefined;
  const { version, sha256Hash } = persisted as { version?: unknown; sha256Hash?: unknown };
  return version === 1 && typeof sha256Hash === 'string' ? sha256Hash : undefined;
}

export class TrustedDocuments {
  readonly mode: TrustedDocumentsMode;
  private readonly manifest: ReadonlyMap<string, string>;
  /** hash → text, oldest first (a Map keeps insertion order; a hit moves its entry to the end). */
  private readonly apq = new Map<string, string>();
  private apqChars = 0;
  private readonly maxEntries: number;
  private readonly maxChars: number;

  constructor(private readonly options: TrustedDocumentsOptions) {
    this.mode = options.mode;
    this.manifest = new Map(options.operations.map((o) => [o.id, o.body]));
    this.maxEntries = options.apqMaxEntries ?? 1000;
    this.maxChars = options.apqMaxChars ?? 4 * 1_048_576;
  }

  isStaff(authorization: string | null | undefined): boolean {
    return this.options.isStaff(authorization);
  }

  /** Whether this caller may send a document's text (and register an APQ hash). */
  allowsText(authorization: string | null | undefined): boolean {
    return this.mode === 'allow' || this.options.isStaff(authorization);
  }

  /** The text for `hash`: the manifest's for anyone; APQ's for a caller who may send text. */
  lookup(hash: string, authorization: string | null | undefined): string | undefined {
    const trusted = this.manifest.get(hash);
    if (trusted !== undefined || this.apq.size === 0 || !this.allowsText(authorization)) return trusted;
    const remembered = this.apq.get(hash);
    if (remembered !== undefined) {
      this.apq.delete(hash);
      this.apq.set(hash, remembered);
    }
    return remembered;
  }

  /**
   * APQ's second step: `query` sent with its `hash`. Refuses a hash that is not the text's SHA-256 (a client must
   * never plant text under another document's hash); otherwise remembers it. The caller checks allowsText first.
   */
  register(hash: string, query: string): GraphQLError | undefined {
    if (createHash('sha256').update(query).digest('hex') !== hash) return hashMismatch();
    if (this.manifest.has(hash) || this.apq.has(hash) || query.length > this.maxChars) return undefined;
    this.apq.set(hash, query);
    this.apqChars += query.length;
    for (const [oldest, text] of this.apq) {
      if (this.apq.size <= this.maxEntries && this.apqChars <= this.maxChars) break;
      this.apq.delete(oldest);
      this.apqChars -= text.length;
    }
    return undefined;
  }

  /**
   * The whole decision for a transport without yoga's `onParams` (graphql-ws): the text to run for these params,
   * or the error yoga's pipeline gives the same request over HTTP.
   */
  resolve(query: unknown, extensions: unknown, authorization: string | null | undefined): string | GraphQLError {
    const hash = persistedHashOf(extensions);
    if (typeof query === 'string' && query !== '') {
      if (!this.allowsText(authorization)) return textRefused();
      return (hash !== undefined && this.register(hash, query)) || query;
    }
    if (hash === undefined) return missingQuery();
    return this.lookup(hash, authorization) ?? notFound();
  }
}

/** APQ's own words (Apollo's clients retry with the text on this message or code). */
export function notFound(): GraphQLError {
  return createGraphQLError('PersistedQueryNotFound', { extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' } });
}

export function textRefused(): GraphQLError {
  return createGraphQLError(
    'Only trusted documents are accepted here: send the sha256Hash of a known document in extensions.persistedQuery (docs/graphql.md#trusted-documents).',
    { extensions: { code: 'PERSISTED_QUERY_ONLY', http: { status: 400 } } },
  );
}

export function hashMismatch(): GraphQLError {
  return createGraphQLError('extensions.persistedQuery.sha256Hash is not the SHA-256 of the query.', {
    extensions: { code: 'PERSISTED_QUERY_HASH_MISMATCH', http: { status: 400 } },
  });
}

/** Neither text nor hash: yoga's own answer (useCheckGraphQLQueryParams), word for word. */
export function missingQuery(): GraphQLError {
  return createGraphQLError('Must provide query string.', {
    extensions: { http: { spec: true, status: 400, headers: { Allow: 'GET, POST' } }, code: 'BAD_REQUEST' },
  });
}
