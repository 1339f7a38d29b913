/** Free 127.0.0.1 ports for servers a test starts itself (nginx, the pages' gateways). */
import { createServer, type Server } from 'node:net';

/**
 * `count` distinct ports that were free a moment ago: each is listened on at once, noted, and only then are all
 * closed. Taken one after another (listen, close, listen again), the system may hand out the same port twice: nginx
 * was once given one port for both its plain and its TLS block, and refused to start ("no ssl_certificate is defined
 * for the listen ... ssl directive" on the plain block).
 */
export async function freePorts(count: number): Promise<number[]> {
  const servers: Server[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const server = createServer();
      server.unref();
      servers.push(server);
      await new Promise<void>((listening, failed) => {
        server.once('error', failed);
        server.listen(0, '127.0.0.1', listening);
      });
    }
    return servers.map((server) => (server.address() as { port: number }).port);
  } finally {
    await Promise.all(servers.map((server) => new Promise((closed) => server.close(closed))));
  }
}

/** One port that was free a moment ago. */
export async function freePort(): Promise<number> {
  return (await freePorts(1))[0]!;
}
