/**
 * Trusted documents in yoga's pipeline (docs/graphql.md#trusted-documents): yoga's own persisted-operations plugin
 * with our TrustedDocuments as its store, and APQ's registration step, which that plugin does not have, as a small
 * plugin of ours in front of it (@graphql-yoga/plugin-apq could not be installed beside yoga 5.24).
 *
 * - A hash alone: the plugin's `getPersistedOperation` reads the manifest (and the APQ store, for a caller who may
 *   send text); unknown → PersistedQueryNotFound, which APQ clients answer by sending the text.
 * - Text with a hash (APQ's second step): ours checks the SHA-256 and remembers it, then the plugin runs the text
 *   as any other text.
 * - Text: run when GRAPHQL_TRUSTED_DOCUMENTS=allow, or for staff; otherwise PERSISTED_QUERY_ONLY (`only`).
 * - Neither: yoga's own "Must provide query string." (the plugin would say PersistedQueryKeyNotFound).
 *
 * Both hook `onParams`, which yoga runs for every way in over HTTP (POST, GET, SSE); graphql-ws has no params step,
 * and ws-transport.ts asks the same TrustedDocuments (`resolve`) itself.
 */
import { usePersistedOperations } from '@graphql-yoga/plugin-persisted-operations';
import type { Plugin } from 'graphql-yoga';
import { missingQuery, notFound, persistedHashOf, textRefused, type TrustedDocuments } from './trusted-documents.ts';

const authorizationOf = (request: Request): string | null => request.headers.get('authorization');

export function useTrustedDocuments(trusted: TrustedDocuments): Plugin[] {
  const registration: Plugin = {
    onParams({ params, request }) {
      const { query, extensions } = params;
      if (typeof query !== 'string' || query === '') return;
      const hash = persistedHashOf(extensions);
      // Not allowed to send text: the persisted-operations plugin refuses it next, before anything is remembered.
      if (hash === undefined || !trusted.allowsText(authorizationOf(request))) return;
      const refused = trusted.register(hash, query);
      if (refused) throw refused;
    },
  };
  const persisted = usePersistedOperations({
    getPersistedOperation: (hash, request) => trusted.lookup(hash, authorizationOf(request)) ?? null,
    // `allow` needs no per-request answer; `only` asks for the staff token.
    allowArbitraryOperations: trusted.mode === 'allow' ? true : (request) => trusted.isStaff(authorizationOf(request)),
    customErrors: { notFound, persistedQueryOnly: textRefused, keyNotFound: missingQuery },
  }) as Plugin;
  return [registration, persisted];
}
