/**
 * The baseline: bare node:http answering every request with the same JSON the gateway's options endpoint serves
 * (passed in BARE_BODY). Nothing can serve it faster on this machine, so every figure is a ratio to this.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const body = Buffer.from(process.env.BARE_BODY ?? '{"ok":true}');
const server = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(body.length) });
  res.end(body);
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`bare server listening on http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
