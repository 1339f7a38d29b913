/**
 * No log line carries a secret (CONTRACT §7, docs/operations.md#request-logs): a whole flow at LOG_LEVEL=debug —
 * card numbers tokenized and paid inline, pay-page card tokens, payTokens in paths, query strings, variables and
 * inline in documents over HTTP and WebSocket, vault tokens, the site's API key, the ADMIN_TOKEN and the
 * METRICS_TOKEN, right and wrong — with every line kept, in memory and from a real process's stdout. None of them
 * appears, and the scrubber never had anything to scrub: no card number was ever handed to the logger.
 */
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/kernel/logger.ts';
import { card, CARDS, paymentBody, showsCvc } from '../payments/support.ts';
import { basicAuth, TEST_API_KEY, TEST_SITE_ID, VALID_ORDER } from '../support/gateway.ts';
import { liveServer, subscribe } from '../support/live-server.ts';
import { startProcess } from '../support/process.ts';

const ADMIN_TOKEN = 'admin-token-e3b0c44298fc1c149afb';
const METRICS_TOKEN = 'metrics-token-9f86d081884c7d659a2f';
const CVC = '7319';

describe('log lines never carry a secret', () => {
  it('a whole flow at debug, on both doors and over WebSocket', async () => {
    const raw: string[] = [];
    const live = await liveServer({ logger: createLogger('debug', (line) => raw.push(line)), env: { ADMIN_TOKEN, METRICS_TOKEN } });
    const url = live.server.url;
    const site = { authorization: basicAuth(TEST_SITE_ID, TEST_API_KEY) };
    const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
      fetch(`${url}${path}`, { method, headers: { 'content-type': 'application/json', ...headers }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    const gql = (query: string, variables: Record<string, unknown> = {}, headers: Record<string, string> = {}) => call('POST', '/graphql', { query, variables }, headers);
    const secrets: string[] = [ADMIN_TOKEN, METRICS_TOKEN, TEST_API_KEY, site.authorization, ...Object.values(CARDS)];

    // A vault token, a payment with the card inline (and its CVC), a declined one.
    const tokenized = await (await call('POST', '/v1/tokenization/tokenize', card(CARDS.mastercard), site)).json();
    secrets.push(tokenized.token);
    expect((await call('POST', '/api/payments', paymentBody(CARDS.ok, { paymentMethod: { type: 'card', card: { number: CARDS.ok, expirationMonth: 12, expirationYear: 2030, holderName: 'Ada Lovelace', cvc: CVC } } }), site)).status).toBe(201);
    await call('POST', '/api/payments', paymentBody(CARDS.declined), site);
    await call('POST', '/api/payments', { ...paymentBody(CARDS.ok), paymentMethod: { type: 'token', token: tokenized.token } }, site);

    // Orders: payTokens in paths' query strings, bodies, variables and inline documents; a pay-page card token.
    const created = await (await call('POST', '/api/orders', VALID_ORDER)).json();
    const { orderNumber, payToken } = created;
    secrets.push(payToken);
    await call('GET', `/api/orders/${orderNumber}?t=${payToken}`);
    await call('GET', `/pay/${orderNumber}?t=${payToken}`);
    const cardToken = await (await call('POST', `/api/orders/${orderNumber}/card-token`, { t: payToken, ...card(CARDS.ok), cvc: CVC })).json();
    secrets.push(cardToken.token);
    await call('POST', `/api/orders/${orderNumber}/pay`, { t: payToken, method: 'card', token: cardToken.token });
    await gql(`{ order(orderNumber: "${orderNumber}", payToken: "${payToken}") { status } }`);
    await gql(`{ order(orderNumber: "${orderNumber}", payToken: "${payToken}") { status } }`); // the fast path
    await gql('query ($n: ID!, $t: String!) { order(orderNumber: $n, payToken: $t) { status } }', { n: orderNumber, t: `${payToken}x` });
    const second = await (await call('POST', '/api/orders', { ...VALID_ORDER, email: 'grace@example.com' })).json();
    secrets.push(second.payToken);
    await gql(`mutation { payOrder(orderNumber: "${second.orderNumber}", input: { t: "${second.payToken}", method: CARD, token: "${tokenized.token}" }) { __typename } }`);

    // WebSocket: a holdCountdown refused (another order's token) and one that fails unexpectedly.
    const client = live.client(`Bearer ${ADMIN_TOKEN}`);
    const refused = subscribe(client, `subscription {\n  holdCountdown(orderNumber: "${orderNumber}", payToken: "${second.payToken}") { secondsLeft }\n}`);
    await refused.failed;

    // Staff with the right and a wrong token; /metrics with the right and a wrong token; a request id that is a card.
    await gql('{ orders(first: 5) { edges { node { orderNumber email } } } }', {}, { authorization: `Bearer ${ADMIN_TOKEN}` });
    await gql('{ orders(first: 5) { edges { node { orderNumber } } } }', {}, { authorization: `Bearer ${ADMIN_TOKEN}x` });
    await call('GET', '/metrics', undefined, { authorization: `Bearer ${METRICS_TOKEN}` });
    await call('GET', '/metrics', undefined, { authorization: `Bearer ${METRICS_TOKEN}x` });
    await call('GET', '/api/sleeve-options', undefined, { 'x-request-id': CARDS.ok });
    await live.gateway.database.destroy();
    const failing = subscribe(client, `subscription {\n  holdCountdown(orderNumber: "${second.orderNumber}", payToken: "${second.payToken}") { secondsLeft }\n}`);
    await failing.failed;

    const log = raw.join('\n');
    expect(raw.length).toBeGreaterThan(20);
    for (const secret of secrets) expect(log, secret).not.toContain(secret);
    expect(showsCvc(log, CVC)).toBe(false);
    expect(log).not.toContain('[redacted-number]');
    for (const line of raw) expect(() => JSON.parse(line)).not.toThrow();
  });

  it('a real process at LOG_LEVEL=debug writes none of them to stdout', async () => {
    const server = await startProcess({ LOG_LEVEL: 'debug', DATABASE_URL: ':memory:', ADMIN_TOKEN, METRICS_TOKEN, VENDOR_SITE_ID: TEST_SITE_ID, VENDOR_API_KEY: TEST_API_KEY });
    const site = { 'content-type': 'application/json', authorization: basicAuth(TEST_SITE_ID, TEST_API_KEY) };
    const tokenized = await (await fetch(`${server.url}/v1/tokenization/tokenize`, { method: 'POST', headers: site, body: JSON.stringify(card(CARDS.ok)) })).json();
    await fetch(`${server.url}/api/payments`, { method: 'POST', headers: site, body: JSON.stringify(paymentBody(CARDS.mastercard)) });
    const created = await (await fetch(`${server.url}/api/orders`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(VALID_ORDER) })).json();
    await fetch(`${server.url}/api/orders/${created.orderNumber}?t=${created.payToken}`);
    await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    await fetch(`${server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` }, body: JSON.stringify({ query: '{ orders(first: 1) { edges { node { orderNumber } } } }' }) });
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    // Only the lines the logger wrote: the generated secrets the process prints once at start are not log lines.
    const log = server.output().split('\n').filter((line) => line.startsWith('{')).join('\n');
    expect(log).toContain('"msg":"request"');
    for (const secret of [ADMIN_TOKEN, METRICS_TOKEN, TEST_API_KEY, tokenized.token, created.payToken, CARDS.ok, CARDS.mastercard]) expect(log, secret).not.toContain(secret);
  });
});
