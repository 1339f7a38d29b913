/**
 * Which project files one request runs, from the socket to the database and back (issue 13's measure of how far
 * a reader must follow a request). V8's precise coverage counts every function call: the counters are reset after
 * a warm-up of the same flow, then one request is made, and every project file with a function called is listed.
 *
 *   npx tsx bench/touched-files.ts
 */
import { Session } from 'node:inspector/promises';
import { relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createGateway, startServer } from '../src/index.ts';

const ROOT = resolve(import.meta.dirname, '..');

interface Coverage {
  result: Array<{ url: string; functions: Array<{ functionName: string; ranges: Array<{ count: number }> }> }>;
}

const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });

const gateway = await createGateway();
const server = await startServer(gateway, { port: 0, host: '127.0.0.1' });

let people = 0;
async function post(path: string, body: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(server.url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return (await response.json()) as Record<string, unknown>;
}
const orderInput = () => ({ email: `p${++people}@example.com`, name: 'Ada Lovelace', size: '13-inch', font: 'Block', thread: 'Gold', stitchText: 'ADA' });
const createMutation = `mutation($input: OrderInput!) { createOrder(input: $input) { ... on Order { orderNumber payToken } } }`;

/** The project files whose functions ran during `run`, after one warm-up run of the same kind. */
async function touched(run: () => Promise<unknown>): Promise<string[]> {
  await run();
  await session.post('Profiler.takePreciseCoverage'); // resets the counters
  await run();
  const { result } = (await session.post('Profiler.takePreciseCoverage')) as Coverage;
  return result
    .filter((script) => script.url.startsWith('file://') && script.functions.some((f) => f.ranges[0]!.count > 0))
    .map((script) => relative(ROOT, fileURLToPath(script.url)))
    .filter((path) => !path.startsWith('..') && !path.startsWith('node_modules') && !path.startsWith('bench'))
    .sort();
}

const restPay = await touched(async () => {
  const created = await post('/api/orders', orderInput());
  // Only the pay is measured: the create above runs in the warm-up and before the reset.
  await session.post('Profiler.takePreciseCoverage');
  return post(`/api/orders/${created.orderNumber as string}/pay`, { t: created.payToken, method: 'vendor_card' });
});
const graphqlCreate = await touched(() => post('/graphql', { query: createMutation, variables: { input: orderInput() } }));

for (const [name, files] of [['REST POST /api/orders/{n}/pay (vendor_card)', restPay], ['GraphQL createOrder', graphqlCreate]] as const) {
  console.log(`${name}: ${files.length} project files`);
  for (const file of files) console.log(`  ${file}`);
}
await server.close(100);
await gateway.dispose();
session.disconnect();
