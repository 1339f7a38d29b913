/** The merchant's endpoint for the chaos run: records each notification's `webhook-id` (and how often it came). */
import { createServer } from 'node:http';

export interface ChaosReceiver {
  url: string;
  /** webhook-id → times received. */
  seen: Map<string, number>;
  /** /token-updated bodies by token, in order of their `timestamp`. */
  tokenUpdates(): Map<string, Array<{ expiration: string; timestamp: number }>>;
  reset(): void;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<ChaosReceiver> {
  const seen = new Map<string, number>();
  let bodies: Array<{ path: string; body: any }> = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const id = String(req.headers['webhook-id'] ?? '');
      seen.set(id, (seen.get(id) ?? 0) + 1);
      try {
        bodies.push({ path: req.url ?? '', body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      } catch {
        // not JSON: counted by id all the same
      }
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    tokenUpdates() {
      const byToken = new Map<string, Array<{ expiration: string; timestamp: number }>>();
      for (const { path, body } of bodies) {
        if (path !== '/token-updated') continue;
        const list = byToken.get(body.token) ?? [];
        list.push({ expiration: body.card.expiration, timestamp: Number(body.timestamp) });
        byToken.set(body.token, list);
      }
      for (const list of byToken.values()) list.sort((a, b) => a.timestamp - b.timestamp);
      return byToken;
    },
    reset() {
      seen.clear();
      bodies = [];
    },
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}
