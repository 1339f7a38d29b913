/**
 * One pipeline, proven (issue 16): every request of the table goes twice through yoga's own Fetch handler in memory
 * (what frontend teams' tests call) and twice through the production entry, the node:http handler on a real port.
 * There the first of the two is yoga's node pipeline (it fills the document cache) and the second is answered by
 * the fast JSON path whenever the path takes it. Each pair must match whole: status, every header but those node
 * adds to any answer on a socket (date, connection, keep-alive) and the request id, and the body byte for byte. Each row also says
 * which path must answer the second request, read from yoga itself: it logs "Parsing request to extract GraphQL
 * parameters" for every request it processes, and the fast path never goes near it.
 */
import { describe, expect, it } from 'vitest';
import { gatewayCountingYoga } from '../support/graphql-transports.ts';

const JSON_TYPE = { 'content-type': 'application/json' };
const STAFF = { authorization: 'Bearer test-admin-token' };
const ORIGIN = { origin: 'http://shop.example' };
const ORDER_QUERY = 'query ($n: ID!, $t: String!) { order(orderNumber: $n, payToken: $t) { status } }';
/** A create the domain refuses (the email), so that every first answer is the same: counted, then the limit's 429. */
const CREATE = 'mutation ($input: OrderInput!) { createOrder(input: $input) { __typename } }';

interface Row {
  name: string;
  /**
   * The path that must answer the second request over the socket: `fast`, `yoga`, or `refused` — by a yoga plugin
   * at onRequest, before yoga parses anything (so neither path's mark shows; the fast path never answers 415).
   */
  second: 'fast' | 'yoga' | 'refused';
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** A JSON body (stringified), or the raw text of one. */
  body?: unknown;
  /** The query string of a GET. */
  search?: string;
  env?: Record<string, string>;
  /** The status both answers must have. */
  status: number;
  /** Run before the requests: the database closed, so that resolvers throw an unexpected error yoga masks. */
  databaseGone?: boolean;
}

const ROWS: Row[] = [
  { name: 'a successful query, application/json', second: 'fast', headers: { ...JSON_TYPE, accept: 'application/json' }, body: { query: '{ sleeveOptions { sizes charLimit } }' }, status: 200 },
  { name: 'a successful query, graphql-response+json', second: 'fast', headers: { ...JSON_TYPE, accept: 'application/graphql-response+json' }, body: { query: '{ sleeveOptions { fonts } eventInfo }' }, status: 200 },
  { name: 'a query with no Accept header', second: 'fast', headers: JSON_TYPE, body: { query: '{ eventInfo }' }, status: 200 },
  { name: 'variables', second: 'fast', headers: JSON_TYPE, body: { query: ORDER_QUERY, variables: { n: '1001', t: 'nope' } }, status: 200 },
  { name: 'a variable of the wrong type', second: 'fast', headers: JSON_TYPE, body: { query: ORDER_QUERY, variables: { n: '1', t: 5 } }, status: 400 },
  { name: 'a variable of the wrong type, application/json', second: 'fast', headers: { ...JSON_TYPE, accept: 'application/json' }, body: { query: ORDER_QUERY, variables: { n: '1', t: 5 } }, status: 200 },
  { name: 'a named operation with fragments', second: 'fast', headers: JSON_TYPE, body: { query: 'query Q { ...F } fragment F on Query { eventInfo }', operationName: 'Q' }, status: 200 },
  { name: 'a staff field without the token (an error in the result)', second: 'fast', headers: JSON_TYPE, body: { query: '{ orders { totalCount } }' }, status: 200 },
  { name: 'a staff field with the token', second: 'fast', headers: { ...JSON_TYPE, ...STAFF }, body: { query: '{ orders { totalCount } }' }, status: 200 },
  { name: 'a domain error of a staff mutation', second: 'fast', headers: { ...JSON_TYPE, ...STAFF }, body: { query: 'mutation { advanceOrder(orderNumber: "999", status: READY) { status } }' }, status: 200 },
  { name: 'an unexpected error, masked', second: 'fast', headers: { ...JSON_TYPE, accept: 'application/json' }, body: { query: ORDER_QUERY, variables: { n: '1001', t: 'x' } }, databaseGone: true, status: 200 },
  { name: 'a validation error', second: 'yoga', headers: { ...JSON_TYPE, accept: 'application/graphql-response+json' }, body: { query: '{ sleeveOptions { nope } }' }, status: 400 },
  { name: 'a syntax error', second: 'yoga', headers: JSON_TYPE, body: { query: '{ sleeveOptions { ' }, status: 400 },
  { name: 'the alias limit', second: 'yoga', headers: JSON_TYPE, body: { query: `{ ${Array.from({ length: 25 }, (_, i) => `a${i}: eventInfo`).join(' ')} }` }, status: 400 },
  { name: 'the rate limit (429, Retry-After)', second: 'fast', headers: { ...JSON_TYPE, accept: 'application/json' }, body: { query: CREATE, variables: { input: { email: 'not an email', name: 'Ada Lovelace', size: '13-inch', font: 'Block', thread: 'Gold', stitchText: 'ADA' } } }, env: { RATE_LIMIT_WRITE: '1' }, status: 429 },
  { name: 'the wrong-token limit of a field (429, the field null)', second: 'fast', headers: { ...JSON_TYPE, accept: 'application/json' }, body: { query: ORDER_QUERY, variables: { n: '1001', t: 'guess' } }, env: { RATE_LIMIT_READ: '1' }, status: 429 },
  { name: 'CORS, CORS_ORIGINS unset', second: 'fast', headers: { ...JSON_TYPE, ...ORIGIN }, body: { query: '{ eventInfo }' }, status: 200 },
  { name: 'CORS, a listed origin', second: 'fast', headers: { ...JSON_TYPE, ...ORIGIN }, body: { query: '{ eventInfo }' }, env: { CORS_ORIGINS: 'http://shop.example' }, status: 200 },
  { name: 'CORS, an unlisted origin, with an error', second: 'fast', headers: { ...JSON_TYPE, origin: 'http://evil.example' }, body: { query: ORDER_QUERY, variables: { n: '1', t: 5 } }, env: { CORS_ORIGINS: 'http://shop.example' }, status: 400 },
  { name: 'a CORS preflight', second: 'yoga', method: 'POST', headers: { ...JSON_TYPE, ...ORIGIN, 'access-control-request-method': 'POST' }, body: { query: '{ eventInfo }' }, status: 200 },
  { name: 'a cross-site form post (CSRF)', second: 'refused', headers: { 'content-type': 'application/x-www-form-urlencoded', ...ORIGIN }, body: 'query=%7B+eventInfo+%7D', status: 415 },
  { name: 'a text/plain post (CSRF)', second: 'refused', headers: { 'content-type': 'text/plain' }, body: JSON.stringify({ query: '{ eventInfo }' }), status: 415 },
  { name: 'a GET query', second: 'yoga', method: 'GET', headers: { accept: 'application/json' }, search: `?query=${encodeURIComponent('{ eventInfo }')}`, status: 200 },
  { name: 'a mutation over GET', second: 'yoga', method: 'GET', headers: { accept: 'application/json' }, search: `?query=${encodeURIComponent('mutation { setEventInfo(text: "x") }')}`, status: 405 },
  { name: 'batching, refused', second: 'yoga', headers: JSON_TYPE, body: [{ query: '{ eventInfo }' }, { query: '{ eventInfo }' }], status: 400 },
  { name: 'an unknown parameter', second: 'yoga', headers: JSON_TYPE, body: { query: '{ eventInfo }', extra: 1 }, status: 400 },
  { name: 'a body nested too deep', second: 'yoga', headers: JSON_TYPE, body: { query: '{ eventInfo }', variables: { v: JSON.parse('['.repeat(70) + ']'.repeat(70)) } }, status: 400 },
];

interface Whole {
  status: number;
  headers: Record<string, string>;
  body: string;
}

async function whole(response: Response): Promise<Whole> {
  const headers: Record<string, string> = {};
  for (const [name, value] of response.headers) if (!['date', 'connection', 'keep-alive', 'x-request-id'].includes(name.toLowerCase())) headers[name.toLowerCase()] = value;
  return { status: response.status, headers, body: await response.text() };
}


function requestOf(row: Row): RequestInit {
  const body = row.body === undefined ? undefined : typeof row.body === 'string' ? row.body : JSON.stringify(row.body);
  return { method: row.method ?? 'POST', headers: row.headers ?? {}, ...(body !== undefined ? { body } : {}) };
}

describe('the production entry answers exactly as yoga does (one pipeline, proven)', () => {
  it.each(ROWS.map((row) => [row.name, row] as const))('%s', async (_name, row) => {
    const t = await gatewayCountingYoga('node', row.env);
    const { yogaRuns } = t;
    const init = requestOf(row);
    if (row.databaseGone) await t.gateway.database.destroy();
    const path = `/graphql${row.search ?? ''}`;
    const inMemory = [await whole(await t.gateway.fetch(new Request(`http://sleeve.test${path}`, init)))];
    inMemory.push(await whole(await t.gateway.fetch(new Request(`http://sleeve.test${path}`, init))));
    const overSocket = [await whole(await t.request(path, init))];
    const runs = yogaRuns();
    overSocket.push(await whole(await t.request(path, init)));
    const parsedBy = yogaRuns() === runs ? 'fast' : 'yoga';
    expect(row.second === 'refused' ? parsedBy === 'fast' && overSocket[1]!.status === 415 : parsedBy === row.second, `answered by ${parsedBy}`).toBe(true);
    expect(overSocket[0]).toEqual(inMemory[0]);
    expect(overSocket[1]).toEqual(inMemory[1]);
    expect(overSocket[1]!.status).toBe(row.status);
    if (row.databaseGone) expect(JSON.parse(overSocket[1]!.body).errors[0].message).toBe('Unexpected error.');
  });
});
