/**
 * The baselines: bare node:http answering every GET with the JSON the gateway's options endpoint serves (BARE_BODY),
 * and every POST, once its body is read and parsed as JSON, with BARE_POST_BODY (the JSON the gateway's GraphQL
 * `{ sleeveOptions }` answers; BARE_BODY when unset, as the payments and decisions baselines use it). Nothing can serve either faster on this machine, so every figure is a ratio to one of
 * them: a GraphQL POST pays for reading and parsing its body before any GraphQL work, and the POST baseline pays it too.
 * BARE_EXTRA_US (default 0) adds that many microseconds of busy work to every POST before it is answered: the
 * calibration of bench/fixed-cost.ts, which shows what a fixed cost per request does to this baseline's figure.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

const getBody = Buffer.from(process.env.BARE_BODY ?? '{"ok":true}');
const postBody = process.env.BARE_POST_BODY === undefined ? getBody : Buffer.from(process.env.BARE_POST_BODY);

function answer(res: ServerResponse, body: Buffer): void {
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(body.length) });
  res.end(body);
}

const extraMs = Number(process.env.BARE_EXTRA_US ?? 0) / 1000;

/** Busy for `extraMs` of wall time (a stand-in for a server's own work per request). */
function work(): void {
  const until = performance.now() + extraMs;
  while (performance.now() < until);
}

function readJson(req: IncomingMessage, res: ServerResponse): void {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    try {
      JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      // the gateway would answer 400: a baseline only needs to have done the parse
    }
    if (extraMs > 0) work();
    answer(res, postBody);
  });
}

const server = createServer((req, res) => (req.method === 'POST' ? readJson(req, res) : answer(res, getBody)));
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`bare server listening on http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
