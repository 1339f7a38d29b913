/**
 * Several real server processes serving one event, for the two-instance suites in test/scale/: one fresh PostgreSQL
 * schema and Redis prefix shared by all of them (dropped after the test), and small clients for their doors.
 */
import { sharedInstancesEnv } from './databases.ts';
import { faultyLink, type FaultyLink } from './faulty-link.ts';
import { afterThisTest } from './gateway.ts';
import { startProcess, type ServerProcess } from './process.ts';

export interface SharedInstances {
  processes: ServerProcess[];
  /** What every process was started with (DATABASE_URL names the shared schema). */
  env: Record<string, string>;
}

/**
 * Starts `count` processes one after another (the first applies the migrations) on one schema and Redis prefix.
 * `env` is added to the shared variables, or made from them (to reach the shared database another way).
 */
export async function startInstances(
  label: string,
  env: Record<string, string> | ((shared: Record<string, string>) => Promise<Record<string, string>>) = {},
  count = 2,
): Promise<SharedInstances> {
  const shared = sharedInstancesEnv(label);
  afterThisTest(shared.cleanup);
  const all = { ...shared.env, LOG_LEVEL: 'warn', ...(typeof env === 'function' ? await env(shared.env) : env) };
  const processes: ServerProcess[] = [];
  for (let i = 0; i < count; i++) processes.push(await startProcess(all));
  return { processes, env: all };
}

/** A fresh schema and Redis prefix (dropped after the test), and a link (faulty-link.ts) to that database. */
async function linkedSchema(label: string, env: Record<string, string>, lagMs: number): Promise<{ all: Record<string, string>; link: FaultyLink }> {
  const shared = sharedInstancesEnv(label);
  afterThisTest(shared.cleanup);
  const link = await faultyLink(shared.env.DATABASE_URL!, { lagMs });
  return { all: { ...shared.env, LOG_LEVEL: 'warn', ...env }, link };
}

/** One instance on its own schema and Redis prefix, reaching PostgreSQL through a link the test lags, pauses or cuts. */
export async function startBehindLink(label: string, env: Record<string, string>, { lagMs = 0 } = {}): Promise<{ a: ServerProcess; link: FaultyLink }> {
  const { all, link } = await linkedSchema(label, env, lagMs);
  return { a: await startProcess({ ...all, DATABASE_URL: link.url }), link };
}

/**
 * B, then A, on one schema and Redis prefix (B applies the migrations): B reaches PostgreSQL directly, A through a
 * link (faulty-link.ts) the test lags, pauses or cuts, to order what the two do.
 */
export async function startOneBehindLink(label: string, env: Record<string, string>, { lagMs = 0 } = {}): Promise<{ a: ServerProcess; b: ServerProcess; link: FaultyLink }> {
  const { all, link } = await linkedSchema(label, env, lagMs);
  const b = await startProcess(all);
  const a = await startProcess({ ...all, DATABASE_URL: link.url });
  return { a, b, link };
}

/** A merchant endpoint's deliveries, newest first, as the instance at `base` lists them (`headers`: the site's auth). */
export async function endpointDeliveries<T = any>(base: string, endpointId: string, headers: Record<string, string>): Promise<T[]> {
  return ((await (await fetch(`${base}/v1/webhooks/endpoints/${endpointId}/deliveries`, { headers })).json()) as { data: T[] }).data;
}

/** A JSON POST; the answer's status and parsed body. */
export async function postJson(base: string, path: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(base + path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as any };
}

/** A staff GraphQL operation with the admin token; throws on GraphQL errors. */
export async function staffQuery(base: string, adminToken: string, query: string, variables: Record<string, unknown> = {}): Promise<any> {
  const { body } = await postJson(`${base}`, '/graphql', { query, variables }, { authorization: `Bearer ${adminToken}` });
  if (body.errors) throw new Error(JSON.stringify(body.errors));
  return body.data;
}

const OPEN_CHARGEBACK = 'mutation ($o: ID!, $d: String!) { openClaim(input: { orderId: $o, claimType: CHARGEBACK, amount: 9.5, currency: "USD", dueDate: $d, requestedEvidenceTypes: ["INVOICE"] }) { claimId } }';

/**
 * Staff open a chargeback claim on the order `orderId`, due in a week, on `base`: its notification is queued at once
 * (how the suites of several instances cause one).
 */
export function openChargeback(base: string, adminToken: string, orderId: string): Promise<any> {
  const dueDate = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
  return staffQuery(base, adminToken, OPEN_CHARGEBACK, { o: orderId, d: dueDate });
}

/** The status `/ready` answers on `base`. */
export const readiness = async (base: string): Promise<number> => (await fetch(`${base}/ready`)).status;
