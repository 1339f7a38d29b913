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
}

export interface DocumentCache {
  plugin: Plugin;
  /**
   * The document for `source` when it has been parsed and found valid before, else undefined. The fast JSON path
   * uses it to skip the per-request parse and validate hook rounds, whose every hook would only find this cache.
   */
  valid(source: string): DocumentNode | undefined;
}

export function createDocumentCache({ max = 1000 }: DocumentCacheOptions = {}): DocumentCache {
  const documents = new Map<string, DocumentNode | Error>();
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
        if (result == null) return;
        if (documents.size >= max) documents.clear();
        documents.set(source, result as DocumentNode | Error);
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
