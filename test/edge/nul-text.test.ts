/**
 * U+0000 (`"\u0000"` in JSON), which PostgreSQL's text cannot hold (src/kernel/unicode-text.ts): every door refuses
 * it with 400 in its own shape, naming where, and stores nothing, on either database. Before, PostgreSQL answered
 * each path that stored or looked one up with 500 `internal`, retryable, so a client following the rules retried it
 * for ever (a REST review found it on six paths), and SQLite stored it, even in an order's email.
 */
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createDatabase } from '../../src/db/database.ts';
import { DomainError } from '../../src/kernel/errors.ts';
import { paymentBody, CARDS } from '../payments/support.ts';
import { testDatabaseUrl } from '../support/databases.ts';
import { afterThisTest, VALID_ORDER } from '../support/gateway.ts';
import { gatewayOver, TRANSPORTS } from '../support/graphql-transports.ts';

const orders = (t: Awaited<ReturnType<typeof gatewayOver>>) => t.gateway.database.db.selectFrom('orders').select('order_number').execute();

describe.each(TRANSPORTS)('over %s', (transport) => {
  it('REST refuses a body holding U+0000, 400 in the path family\'s shape naming the field, and stores nothing', async () => {
    const t = await gatewayOver(transport);
    const created = await t.rest('POST', '/api/orders', { ...VALID_ORDER, email: 'a\u0000b@example.com' });
    expect(created.status).toBe(400);
    expect(created.body).toMatchObject({ ok: false, code: 'bad_request', field: 'email', error: 'email holds the character U+0000 (NUL), which no field takes.' });
    expect(await orders(t)).toEqual([]);
    const paid = await t.rest('POST', '/api/payments', paymentBody(CARDS.ok, { orderId: 'o\u0000' }), { authorization: t.siteAuthorization });
    expect(paid.status).toBe(400);
    expect(paid.body).toMatchObject({ status: 'error', errors: [{ field: 'orderId' }] });
    const detokenized = await t.rest('POST', '/v1/tokenization/detokenize', { token: 'tok\u0000' }, { authorization: t.siteAuthorization });
    expect(detokenized.status).toBe(400);
    // In a path: kept as sent (`%00`), an id no record has, never a 500.
    const decided = await t.rest('POST', '/v2/accounts/profile-access/ev%00x', {}, { authorization: t.siteAuthorization });
    expect(decided.status).toBeLessThan(500);
  });

  it('GraphQL refuses a variable holding U+0000, creating nothing', async () => {
    const t = await gatewayOver(transport);
    const query = 'mutation ($i: OrderInput!) { createOrder(input: $i) { __typename } }';
    const res = await t.request('/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query, variables: { i: { ...VALID_ORDER, email: 'a\u0000b@example.com' } } }) });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { errors: Array<{ message: string }> }).errors[0]!.message).toBe('variables.i.email holds the character U+0000 (NUL), which no field takes.');
    expect(await orders(t)).toEqual([]);
  });

  it('GraphQL refuses a string literal holding U+0000 wherever it is, naming the argument, and stores nothing', async () => {
    const t = await gatewayOver(transport);
    // The name rule takes control characters; SQLite stored this one in the order's name.
    const query = `mutation { createOrder(input: { email: "ada@example.com", name: "Ada\\u0000 Lovelace", size: "${VALID_ORDER.size}", font: "${VALID_ORDER.font}", thread: "${VALID_ORDER.thread}", stitchText: "ADA" }) { __typename } }`;
    const res = await t.request('/graphql', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' }, body: JSON.stringify({ query }) });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { data?: unknown; errors: Array<{ message: string; extensions: { code: string } }> };
    expect(body.data).toBeUndefined();
    expect(body.errors).toMatchObject([{ message: 'createOrder(input.name) holds the character U+0000 (NUL), which no field takes.', extensions: { code: 'BAD_USER_INPUT' } }]);
    expect(await orders(t)).toEqual([]);
  });
});

describe('an email', () => {
  it.each(['a\u0007b@example.com', 'a\u202eb@example.com', 'a\u200bb@example.com'])('with a control or invisible character (%j) is refused, 422', async (email) => {
    const t = await gatewayOver('node');
    const created = await t.rest('POST', '/api/orders', { ...VALID_ORDER, email });
    expect(created.status).toBe(422);
    expect(created.body).toMatchObject({ code: 'validation_failed', field: 'email', error: 'Email may not contain control or invisible characters.' });
  });
});

describe.skipIf(!testDatabaseUrl())('PostgreSQL meeting U+0000 some other way', () => {
  it('answers the client\'s 400, not a 500 to retry', async () => {
    const database = await createDatabase({ kind: 'postgres', url: testDatabaseUrl()! }, {});
    afterThisTest(() => database.destroy());
    const refused = await sql`select ${'a\u0000'}::text as t`.execute(database.db).then(() => null, (error: unknown) => error);
    expect(refused).toBeInstanceOf(DomainError);
    expect(refused).toMatchObject({ code: 'bad_request' });
  });
});
