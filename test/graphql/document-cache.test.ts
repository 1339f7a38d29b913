/**
 * The document cache (graphql-server/document-cache.ts) holds at most `maxChars` of document text, all documents
 * together. Bounded by count alone, 1,000 documents padded with a 1 MB comment each (a comment is no token, so the
 * token limit lets it through) held a gigabyte: a security review saw RSS grow 600 MB from 150 of them.
 */
import { parse, type DocumentNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { createDocumentCache, type DocumentCache } from '../../graphql-server/document-cache.ts';

/** One request's parse and validation through the cache's hooks, as envelop calls them. */
function seen(cache: DocumentCache, source: string): void {
  const hooks = cache.plugin as unknown as {
    onParse(args: unknown): ((args: { result: DocumentNode }) => void) | void;
    onValidate(args: unknown): ((args: { result: readonly Error[] }) => void) | void;
  };
  let document: DocumentNode | undefined;
  const afterParse = hooks.onParse({ params: { source }, setParsedDocument: (cached: DocumentNode) => (document = cached) });
  if (!document) {
    document = parse(source);
    afterParse?.({ result: document });
  }
  hooks.onValidate({ params: { documentAST: document }, setResult: () => undefined })?.({ result: [] });
}

const padded = (name: string, length: number) => `{ ${name} } # ${'x'.repeat(length - name.length - 7)}`;

describe('the document cache', () => {
  it('keeps documents up to its characters, then starts again; a document larger than them is never kept', () => {
    const cache = createDocumentCache({ maxChars: 100 });
    const [a, b, huge] = [padded('sleeveOptions', 60), padded('eventInfo', 60), padded('sleeveOptions', 150)];
    seen(cache, a);
    expect(cache.valid(a)).toBeDefined();
    seen(cache, b); // 120 characters together: more than 100
    expect([cache.valid(a), cache.valid(b)]).toEqual([undefined, expect.anything()]);
    seen(cache, huge);
    expect([cache.valid(huge), cache.valid(b)]).toEqual([undefined, expect.anything()]);
  });

  it('still keeps many small documents, by count', () => {
    const cache = createDocumentCache({ max: 3 });
    const sources = ['{ a: eventInfo }', '{ b: eventInfo }', '{ c: eventInfo }'];
    for (const source of sources) seen(cache, source);
    expect(sources.map((source) => cache.valid(source) !== undefined)).toEqual([true, true, true]);
  });
});
