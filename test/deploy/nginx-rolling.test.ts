/**
 * A rolling restart through deploy/nginx/sleeve-gateway.conf under load (docs/operations.md#readiness): two instances
 * with DRAIN_SECONDS, each sent SIGTERM and started again in turn while clients keep POSTing through nginx. nginx
 * never sends a POST again once it has sent it to an instance, so every connection an instance drops with a request
 * on it is an answer the client sees as 502/503. None may be, but for the rare connection the kernel resets as the
 * listener closes (at most 2 a run). Skipped, saying why, as nginx.test.ts is.
 */
import { Agent, request } from 'node:https';
import { describe, expect, it } from 'vitest';
import { startInstances } from '../support/instances.ts';
import { startProcess } from '../support/process.ts';
import { freePorts } from '../support/ports.ts';
import { NGINX, SKIPPED, startNginx } from './nginx-server.ts';

/** Clients POSTing a GraphQL query through nginx, on kept-alive TLS connections, until stopped; each answer's status counted. */
function postLoad(ca: string, origin: string, clients: number) {
  const agent = new Agent({ keepAlive: true, ca, maxSockets: clients });
  const statuses = new Map<number | string, number>();
  let stopped = false;
  const post = () =>
    new Promise<number | string>((resolve) => {
      const req = request(`${origin}/graphql`, { method: 'POST', agent, headers: { 'content-type': 'application/json' } }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode!));
      });
      req.on('error', (error) => resolve(error.message));
      req.end('{"query":"{ eventInfo }"}');
    });
  const loops = Array.from({ length: clients }, async () => {
    while (!stopped) {
      const status = await post();
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
  });
  return {
    async stop() {
      stopped = true;
      await Promise.all(loops);
      agent.destroy();
      return Object.fromEntries(statuses);
    },
  };
}

describe.skipIf(SKIPPED)(`a rolling restart behind deploy/nginx${SKIPPED ? ` (skipped: ${SKIPPED})` : ''}`, () => {
  it('answers the POSTs while each instance drains, stops and comes back in turn, but for the rare one the kernel resets', { timeout: 90_000 }, async () => {
    const ports = await freePorts(2);
    // The shared schema and Redis prefix only: both processes are started here, each on a port of its own to come back on.
    const { env } = await startInstances('rolling', { TRUST_PROXY: '127.0.0.1', DRAIN_SECONDS: '1' }, 0);
    const start = (port: number) => startProcess({ ...env, PORT: String(port) });
    const instances = [await start(ports[0]!), await start(ports[1]!)];
    const nginx = await startNginx(NGINX!, ports.map((port) => `127.0.0.1:${port}`));
    const load = postLoad(nginx.ca, nginx.https, 8);
    for (let round = 0; round < 2; round++) {
      for (const i of [0, 1]) {
        await new Promise((resolve) => setTimeout(resolve, 300));
        instances[i]!.child.kill('SIGTERM');
        await instances[i]!.exited;
        instances[i] = await start(ports[i]!);
      }
    }
    const statuses = await load.stop();
    const answered = Object.values(statuses).reduce((sum, n) => sum + n, 0);
    // Before, each drain's end reset connections nginx had just sent a POST on (a 502 in its access log, 503 here):
    // kept ones closed at once as idle, and new ones not yet accepted (every answer of the drain said
    // `Connection: close`, so nginx opened one per request). { 200: 41227, 503: 3 }, and 4 to 10 in five other runs.
    // What is left, most likely: a connection nginx opens in the instant the listener closes, before the instance
    // accepts it, is reset by the kernel (0 in 21 runs alone; 1 of 30,563 in one of two whole-suite runs, the cores
    // busy). Two would still be fewer than the old code lost in any run alone.
    const lost = answered - (statuses[200] ?? 0);
    expect(lost, JSON.stringify(statuses)).toBeLessThanOrEqual(2);
    expect(answered).toBeGreaterThan(500);
  });
});
