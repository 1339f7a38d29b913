/**
 * The document cache: parses and validates each distinct document once. It replaces yoga's own
 * parserAndValidationCache, which on every request builds a key from the names of all validation rules
 * (`rules.map(r => r.name).join(',')`, about thirty function-name reads) and goes through lru-cache — together
 * a sixth of a small query's time here. Our schema and rules never change at run time, so the parsed
 * document alone is the key. Listed first, so the query-limit plugins' rules take part in the one validation
 * that is cached.
 */
import type { Plugin } from '@envelop/core';
import type { DocumentNode, GraphQLError } from 'graphql';

export interface DocumentCacheOptions {
  /** Distinct documents kept; the cache is emptied when it fills (documents come from a few clients). @default 1000 */
  max?: number;
  /**
   * Characters of document text kept, all documents together: emptied too when they would pass it. Counted by
   * documents alone, a cache of 1,000 texts of 1 MB each (a comment is no token: the token limit lets it through)
   * held a gigabyte (a security review saw RSS grow 600 MB from 150 of them). @default 4 MiB, as APQ's store
   */
  maxChars?: number;
}

export interface DocumentCache {
  plugin: Plugin;
  /**
   * The document for `source` when it has been parsed and found valid before, else undefined. The fast JSON path
   * uses it to skip the per-request parse and validate hook rounds, whose every hook would only find this cache.
   */
  valid(source: string): DocumentNode | undefined;
}

export function createDocumentCache({ max = 1000, maxChars = 4 * 1024 * 1024 }: DocumentCacheOptions = {}): DocumentCache {
  const documents = new Map<string, DocumentNode | Error>();
  let chars = 0;
  const validations = new WeakMap<DocumentNode, readonly (GraphQLError | Error)[]>();
  const plugin: Plugin = {
    onParse({ params, setParsedDocument }) {
      const source = typeof params.source === 'string' ? params.source : params.source.body;
      const cached = documents.get(source);
      if (cached instanceof Error) throw cached;
      if (cached) {
        setParsedDocument(cached);
        return;
      }
      return ({ result }) => {
        if (result == null || source.length > maxChars) return;
        if (documents.size >= max || chars + source.length > maxChars) {
          documents.clear();
          chars = 0;
        }
        documents.set(source, result as DocumentNode | Error);
        chars += source.length;
      };
    },
    onValidate({ params, setResult }) {
      const cached = validations.get(params.documentAST);
      if (cached) {
        setResult(cached as GraphQLError[]);
        return;
      }
      return ({ result }) => {
        validations.set(params.documentAST, result);
      };
    },
  };
  return {
    plugin,
    valid(source) {
      const document = documents.get(source);
      if (!document || document instanceof Error) return undefined;
      return validations.get(document)?.length === 0 ? document : undefined;
    },
  };
}
