/**
 * docs/running.md#shutdown: SIGTERM stops accepting, finishes requests in flight, closes sockets and the database, exits 0.
 * A real process, a request whose body is still arriving when the signal comes, and a real SQLite file that must
 * hold the order afterwards.
 */
import { request } from 'node:http';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { startProcess } from './support/process.ts';
import { tempDir } from './support/temp-dir.ts';
import { VALID_ORDER } from './support/gateway.ts';

describe('SIGTERM', () => {
  it('finishes a request in flight, refuses new connections, and exits 0 with the order stored', async () => {
    const dbPath = join(tempDir(), 'shutdown.db');
    const server = await startProcess({ DATABASE_URL: `file:${dbPath}` });
    const { hostname, port } = new URL(server.url);
    const body = JSON.stringify(VALID_ORDER);

    // Headers and half the body now; the rest after the signal.
    const answered = new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request({ host: hostname, port, method: 'POST', path: '/api/orders', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      });
      req.on('error', reject);
      req.write(body.slice(0, 20));
      setTimeout(() => {
        server.child.kill('SIGTERM');
        setTimeout(() => req.end(body.slice(20)), 300);
      }, 200);
    });

    const reply = await answered;
    expect(reply.status, reply.text).toBe(201);
    expect(JSON.parse(reply.text).orderNumber).toBe('1001');
    expect(await server.exited).toBe(0);
    await expect(fetch(`${server.url}/api/sleeve-options`)).rejects.toThrow();

    const db = new SQLite(dbPath, { readonly: true });
    try {
      expect(db.prepare('select order_number, status from orders').all()).toEqual([{ order_number: 1001, status: 'awaiting payment' }]);
    } finally {
      db.close();
    }
  });

  it('sent to `npm start` reaches the server, which stops cleanly and leaves no process behind', async () => {
    const server = await startProcess({ DATABASE_URL: `file:${join(tempDir(), 'npm-start.db')}` }, 'npm start');
    expect((await fetch(`${server.url}/api/sleeve-options`)).status).toBe(200);
    server.child.kill('SIGTERM'); // npm's own process, as a process manager would signal it
    await server.exited;
    await expect.poll(() => server.output(), { timeout: 10_000 }).toContain('"msg":"stopped"');
    // Nothing answers any more: the server did not outlive npm.
    await expect(fetch(`${server.url}/api/sleeve-options`, { signal: AbortSignal.timeout(2_000) })).rejects.toThrow();
  });
});
