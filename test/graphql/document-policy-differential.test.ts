/**
 * The differential table (differential.test.ts) for trusted documents, APQ and production hardening: each request
 * goes twice through yoga's Fetch handler in memory and twice through the production entry on a real port, where the
 * second is answered by the fast JSON path whenever it takes it. The pairs must match whole (status, headers but
 * date/connection/keep-alive and the request id, body byte for byte), and the row names the path that must answer
 * the second.
 */
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../scripts/trusted-documents.ts';
import { TRUSTED_OPERATIONS } from '../../src/pages/trusted-operations.ts';
import { byHash, policyGateway, STAFF } from './document-policy-support.ts';

const JSON_TYPE = { 'content-type': 'application/json', accept: 'application/graphql-response+json' };
const ONLY = { GRAPHQL_TRUSTED_DOCUMENTS: 'only' };
const PRODUCTION = { GRAPHQL_PRODUCTION: 'on' };
const TEXT = '{ sleeveOptions { charLimit } }';
const hashOf = (name: string) => TRUSTED_OPERATIONS.find((o) => o.name === name)!.id;
const extensionsOf = (hash: string) => encodeURIComponent(JSON.stringify(byHash(hash).extensions));

interface Row {
  name: string;
  second: 'fast' | 'yoga';
  body?: unknown;
  search?: string;
  headers?: Record<string, string>;
  env?: Record<string, string>;
  /** Sent once, in memory, before the requests compared (APQ's registration). */
  before?: unknown;
  status: number;
}

const ROWS: Row[] = [
  { name: 'a manifest hash', second: 'fast', body: byHash(hashOf('OrderPageOptions'), {}, { operationName: 'OrderPageOptions' }), status: 200 },
  { name: 'a manifest hash with variables', second: 'fast', body: byHash(hashOf('OrderPageOrder'), { n: '1001', t: 'nope' }), status: 200 },
  { name: 'a manifest hash, only', second: 'fast', body: byHash(hashOf('StaffOptions')), env: ONLY, status: 200 },
  { name: 'a manifest hash over GET', second: 'yoga', search: `?extensions=${extensionsOf(hashOf('OrderPageOptions'))}`, status: 200 },
  { name: 'an unknown hash', second: 'yoga', body: byHash(sha256Hex(TEXT)), status: 200 },
  { name: 'neither text nor hash', second: 'yoga', body: { variables: {} }, status: 400 },
  { name: 'text without the staff token, only', second: 'yoga', body: { query: TEXT }, env: ONLY, status: 400 },
  { name: 'text with the staff token, only', second: 'fast', body: { query: TEXT }, headers: { authorization: STAFF }, env: ONLY, status: 200 },
  { name: 'APQ registration (text and hash)', second: 'yoga', body: { query: TEXT, ...byHash(sha256Hex(TEXT)) }, status: 200 },
  { name: 'an APQ hash registered before', second: 'fast', before: { query: TEXT, ...byHash(sha256Hex(TEXT)) }, body: byHash(sha256Hex(TEXT)), status: 200 },
  { name: 'APQ text under another hash', second: 'yoga', body: { query: TEXT, ...byHash(sha256Hex('{ eventInfo }')) }, status: 400 },
  { name: 'introspection without the staff token, production', second: 'yoga', body: { query: '{ __schema { queryType { name } } }' }, env: PRODUCTION, status: 400 },
  { name: 'introspection with the staff token, production', second: 'fast', body: { query: '{ __schema { queryType { name } } }' }, headers: { authorization: STAFF }, env: PRODUCTION, status: 200 },
  { name: 'a mistyped field, production', second: 'yoga', body: { query: '{ sleeveOptions { sizez } }' }, env: PRODUCTION, status: 400 },
  { name: 'aliases of __typename over the limit', second: 'yoga', body: { query: `{ ${Array.from({ length: 21 }, (_, i) => `t${i}: __typename`).join(' ')} }` }, status: 400 },
];

async function whole(response: Response) {
  const headers: Record<string, string> = {};
  // Less those node adds on a socket, and the request id, which differs per request by design.
  for (const [name, value] of response.headers) if (!['date', 'connection', 'keep-alive', 'x-request-id'].includes(name.toLowerCase())) headers[name.toLowerCase()] = value;
  return { status: response.status, headers, body: await response.text() };
}

describe('the production entry answers trusted documents, APQ and production requests exactly as yoga does', () => {
  it.each(ROWS.map((row) => [row.name, row] as const))('%s', async (_name, row) => {
    const t = await policyGateway('node', row.env);
    const headers = { ...JSON_TYPE, ...row.headers };
    const init: RequestInit = row.body === undefined ? { headers } : { method: 'POST', headers, body: JSON.stringify(row.body) };
    const path = `/graphql${row.search ?? ''}`;
    const inMemory = (): Promise<Response> => t.gateway.fetch(new Request(`http://sleeve.test${path}`, init));
    if (row.before) await t.gateway.fetch(new Request('http://sleeve.test/graphql', { method: 'POST', headers, body: JSON.stringify(row.before) }));
    const yoga = [await whole(await inMemory()), await whole(await inMemory())];
    const first = await whole(await t.request(path, init));
    // Which path answers the second is read from yoga's log line (policyGateway), through the same request.
    const second = row.body === undefined ? await t.get(Object.fromEntries(new URLSearchParams(row.search)), row.headers) : await t.post(row.body, row.headers);
    expect(second.path).toBe(row.second);
    const again = await whole(await t.request(path, init));
    expect(first).toEqual(yoga[0]);
    expect(again).toEqual(yoga[1]);
    expect(again.status).toBe(row.status);
    expect(JSON.parse(again.body)).toEqual(second.body);
  });
});
