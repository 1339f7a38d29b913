/**
 * The orders flow's HTTP ceiling (issue 21): the least any HTTP server can do for it. A bare node:http server, in a
 * process of its own as the gateway is, whose two routes run the raw baseline's statements (bench/write-baseline-
 * flows.ts orderCreate and orderPay, through the same runner and group commit as bench/write-baseline-worker.ts):
 *
 *  - POST /api/orders: the JSON body read and parsed, the order written, `{ orderNumber, payToken }` answered (201);
 *  - POST /api/orders/{n}/pay: the body read and parsed, the demo card's payment written, `{ orderNumber, status }`.
 *
 * Loaded by bench/orders.ts's own load (16 connections, create then pay), it says what HTTP alone costs the flow:
 * its orders/s over the raw baseline's is the most a server of this flow can reach, and the gateway's over its own is
 * what the gateway's work per request (routing, validation, auth of the pay token, limits, logs, metrics, traces,
 * the order's view) costs beyond that. It does none of that work, so it is the ceiling, not a rival.
 *
 * Environment: WB_TARGET (a SQLite path or a PostgreSQL URL with ?schema=), WB_SYNCHRONOUS. Prints "listening on".
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { orderCreate, orderPay, type OrderFields } from './write-baseline-flows.ts';
import { HOLD_SECONDS, openRunner } from './write-baseline-worker.ts';

const runner = await openRunner(process.env.WB_TARGET!, process.env.WB_SYNCHRONOUS);
const PAY_PATH = /^\/api\/orders\/(\d+)\/pay$/u;

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }).end(text);
}

async function answer(req: IncomingMessage, res: ServerResponse, raw: Buffer): Promise<void> {
  const body = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
  if (req.method !== 'POST') return send(res, 405, { error: 'method not allowed' });
  if (req.url === '/api/orders') {
    const { number, payToken } = await orderCreate(runner, HOLD_SECONDS, body as unknown as OrderFields);
    return send(res, 201, { orderNumber: String(number), payToken });
  }
  const pay = PAY_PATH.exec(req.url ?? '');
  if (!pay) return send(res, 404, { error: 'not found' });
  await orderPay(runner, Number(pay[1]), String(body.t));
  send(res, 200, { orderNumber: pay[1], status: 'received' });
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
