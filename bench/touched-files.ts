/**
 * Which project files one request runs, from the socket to the database and back (issue 13's measure of how far
 * a reader must follow a request). V8's precise coverage counts every function call: the counters are reset after
 * a warm-up of the same flow, then one request is made, and every project file with a function called is listed.
 *
 * The files are then sorted into the rooms issue 13 names (adapter, router or yoga, route or field, service, rules,
 * repository, view), apart from what every request passes whatever it asks (kernel/ and operations/: limits, ids,
 * the clock, logs, metrics, traces) and what runs after the commit because of it (listeners of the event it
 * published). Which room a file is in follows from its folder and its name's ending alone (ROOMS below).
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

/** First match wins. */
const ROOMS: Array<[room: string, pattern: RegExp]> = [
  ['every request (limits, ids, clock, logs, metrics, traces)', /^src\/(kernel|operations)\//u],
  ['after the commit (listeners of the published event)', /^(mcp\/resource-updates|src\/jobs\/|src\/\w+\/[\w-]+-job\.ts$|src\/\w+\/[\w-]+-events\.ts$)/u],
  ['adapter', /^(src\/server\.ts|src\/http\/|rest-compat\/(node|fetch)-adapter\.ts|graphql-server\/(node-handler|http-messages)\.ts)/u],
  ['router or yoga', /^(rest-compat\/(api|routes|http|path-family|errors)\.ts|graphql-server\/)/u],
  ['route or field', /^(rest-compat\/|schema\/)/u],
  ['repository', /^(src\/\w+\/[\w-]+-repository\.ts|src\/db\/)/u],
  ['service', /^src\/\w+\/[\w-]+-service\.ts$/u],
  ['view', /^src\/\w+\/[\w-]+-view\.ts$/u],
  ['rules', /^src\/\w+\//u],
];
const roomOf = (file: string) => ROOMS.find(([, pattern]) => pattern.test(file))?.[0] ?? 'other';

for (const [name, files] of [['REST POST /api/orders/{n}/pay (vendor_card)', restPay], ['GraphQL createOrder', graphqlCreate]] as const) {
  const rooms = new Map<string, string[]>(); // Map.groupBy needs Node 21
  for (const file of files) rooms.set(roomOf(file), [...(rooms.get(roomOf(file)) ?? []), file]);
  const own = [...rooms.keys()].filter((room) => !room.startsWith('every request') && !room.startsWith('after the commit'));
  const ownFiles = own.reduce((sum, room) => sum + rooms.get(room)!.length, 0);
  console.log(`${name}: ${files.length} project files; its own path ${own.length} rooms, ${ownFiles} files`);
  for (const [room, inRoom] of [...rooms].sort(([a], [b]) => ROOMS.findIndex(([r]) => r === a) - ROOMS.findIndex(([r]) => r === b))) {
    console.log(`  ${room}: ${inRoom.join(', ')}`);
  }
}
await server.close(100);
await gateway.dispose();
session.disconnect();
