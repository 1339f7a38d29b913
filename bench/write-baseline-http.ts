/**
 * The write paths' HTTP ceiling (issue 21): the least any HTTP server can do for each flow. A bare node:http server,
 * in a process of its own as the gateway is, whose routes run the raw baseline's statements (bench/write-baseline-
 * flows.ts, through the same runner and commits as bench/write-baseline-worker.ts):
 *
 *  - POST /api/orders: the order written (orderCreate), `{ orderNumber, payToken }` answered (201);
 *  - POST /api/orders/{n}/pay: the demo card's payment written (orderPay), `{ orderNumber, status }`;
 *  - POST /api/payments: the payment under its Idempotency-Key (payment: the card vaulted, charged, the key settled);
 *  - POST /v2/accounts/profile-access/{id}: the decision (decision: the history, the rules, the request, the account).
 *
 * Each JSON body is read and parsed; nothing else is done (no routing table, validation, limits, logs, metrics or
 * traces, no view of the answer). Loaded as the gateway is (bench/write-baseline.ts loadGateway), its rate over the
 * raw baseline's is the most an HTTP server of the flow reaches here, and the gateway's over its own is what the
 * gateway's work per request costs beyond HTTP. It is the ceiling, not a rival.
 *
 * Environment: WB_TARGET (a SQLite path or a PostgreSQL URL with ?schema=), WB_SYNCHRONOUS. Prints "listening on".
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { canonical, decision, orderCreate, orderPay, payment, SITE_ID, vaultCrypto } from './write-baseline-flows.ts';
import type { OrderInput } from '../src/orders/order-input.ts';
import { HOLD_SECONDS, openRunner } from './write-baseline-worker.ts';

const runner = await openRunner(process.env.WB_TARGET!, process.env.WB_SYNCHRONOUS);
const crypto = vaultCrypto(randomBytes(32));
const PAY_PATH = /^\/api\/orders\/(\d+)\/pay$/u;
const DECISION_PATH = /^\/v2\/accounts\/profile-access\/([^/]+)$/u;

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }).end(text);
}

async function answer(req: IncomingMessage, res: ServerResponse, raw: Buffer): Promise<void> {
  const body = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
  const url = req.url ?? '';
  if (req.method !== 'POST') return send(res, 405, { error: 'method not allowed' });
  if (url === '/api/orders') {
    const { number, payToken } = await orderCreate(runner, HOLD_SECONDS, body as unknown as OrderInput);
    return send(res, 201, { orderNumber: String(number), payToken });
  }
  const pay = PAY_PATH.exec(url);
  if (pay) {
    await orderPay(runner, Number(pay[1]), String(body.t));
    return send(res, 200, { orderNumber: pay[1], status: 'received' });
  }
  if (url === '/api/payments') {
    const key = String(req.headers['idempotency-key']);
    await payment(runner, crypto, SITE_ID, canonical(body), key);
    return send(res, 201, { idempotencyKey: key, status: 'succeeded' });
  }
  const decided = DECISION_PATH.exec(url);
  if (decided) {
    await decision(runner, SITE_ID, decodeURIComponent(decided[1]!), body, 'http://127.0.0.1');
    return send(res, 200, { eventId: decided[1] });
  }
  send(res, 404, { error: 'not found' });
}

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    answer(req, res, Buffer.concat(chunks)).catch((error: unknown) => send(res, 500, { error: String(error) }));
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}`));
process.on('SIGTERM', () => process.exit(0));
