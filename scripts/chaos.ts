/**
 * `npm run chaos`: real traffic against real server processes killed (SIGKILL) at random moments and restarted,
 * first one instance on SQLite, then two instances on one PostgreSQL schema and Redis (when TEST_DATABASE_URL and
 * TEST_REDIS_URL, or DATABASE_URL and REDIS_URL, name them); then the same two instances' PostgreSQL connections
 * terminated at random moments (`pg_terminate_backend`, as a restart or failover does), with no restart: any exit
 * is a loss there; then, also with no restart, some of their open connections go silent at random moments (a proxy
 * drops everything on them, as a network dropping packets does; `query_timeout=2`). Clients of two sites (the
 * bootstrap site and a merchant with webhook endpoints of its own, chaos/endpoints.ts) keep a ledger of every success
 * they were told of; after the faults stop and the servers have had time to finish what was due, the ledger is
 * checked against the database and every endpoint's receiver. It prints the figures and exits 1 on any loss (issue 14).
 *
 *   npm run chaos                         # every phase, about 4 × (CHAOS_SECONDS + settle)
 *   CHAOS_SECONDS=20 CHAOS_KILLS=10 CHAOS_PHASES=terminate npm run chaos
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createDatabase } from '../src/db/database.ts';
import { checkLedger, type Verdict } from './chaos/check.ts';
import { rotateSecret, setUpTenants } from './chaos/endpoints.ts';
import { Ledger } from './chaos/ledger.ts';
import { startInstances, type Instances } from './chaos/instances.ts';
import { startReceiver } from './chaos/receiver.ts';
import { startSilentLink } from './chaos/silent-link.ts';
import { runTraffic } from './chaos/traffic.ts';
import pg from 'pg';

const SECONDS = Number(process.env.CHAOS_SECONDS ?? 40);
const KILLS = Number(process.env.CHAOS_KILLS ?? 12);
/** How many times every PostgreSQL connection of the instances is terminated, in the last phase. */
const TERMINATIONS = Number(process.env.CHAOS_TERMINATIONS ?? 30);
/** How many times some of the instances' open PostgreSQL connections go silent, in the `silence` phase. */
const SILENCES = Number(process.env.CHAOS_SILENCES ?? 15);
/** `sqlite`, `postgres`, `terminate` and `silence`, comma-separated (default: all four). */
const PHASES = (process.env.CHAOS_PHASES ?? 'sqlite,postgres,terminate,silence').split(',');

/** What is done to the servers, `count` times at random moments over CHAOS_SECONDS. */
interface Fault {
  name: string;
  count: number;
  strike(instances: Instances): Promise<void>;
  /** What the strikes did, when it is more than their number. */
  detail?(): string;
}

const KILL: Fault = { name: 'kills', count: KILLS, strike: (instances) => instances.killAndRestart(Math.floor(Math.random() * instances.count)) };

/** Terminates every connection whose application_name is `name`, through a connection of its own. */
async function terminator(url: string, name: string): Promise<Fault & { close(): Promise<void> }> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  let terminated = 0;
  return {
    name: 'terminations',
    count: TERMINATIONS,
    async strike() {
      const sql = 'select count(pg_terminate_backend(pid))::int as n from pg_stat_activity where application_name = $1 and pid <> pg_backend_pid()';
      terminated += (await admin.query<{ n: number }>(sql, [name])).rows[0]!.n;
    },
    detail: () => `${terminated} connections ended`,
    close: () => admin.end(),
  };
}
/** Before each strike, half the open connections, at random, go silent (scripts/chaos/silent-link.ts). */
async function silencer(base: string): Promise<Fault & { close(): Promise<void>; route(url: URL): URL }> {
  const link = await startSilentLink(base);
  let silenced = 0;
  return {
    name: 'silences',
    count: SILENCES,
    async strike() {
      silenced += link.silence(0.5);
    },
    detail: () => `${silenced} connections silenced`,
    route(url) {
      const through = new URL(link.url);
      through.search = url.search;
      through.searchParams.set('query_timeout', '2');
      return through;
    },
    close: () => link.close(),
  };
}

/** Past the pay flow's stale bound (60 s) and one reconciliation poll (30 s): what a crash left is settled by then. */
const SETTLE_MS = Number(process.env.CHAOS_SETTLE_SECONDS ?? 100) * 1000;

async function phase(
  name: string,
  instances: Instances,
  receiver: Awaited<ReturnType<typeof startReceiver>>,
  openDatabase: () => ReturnType<typeof createDatabase>,
  fault: Fault = KILL,
): Promise<Verdict> {
  const ledger = new Ledger();
  const running = { on: true };
  let traffic: Promise<void> = Promise.resolve();
  try {
    receiver.reset();
    const tenants = await setUpTenants(instances.urls[0]!, BOOTSTRAP_SITE, receiver);
    console.log(`chaos ${name}: ${fault.count} ${fault.name} over about ${SECONDS} s of traffic`);
    traffic = runTraffic(instances, ledger, tenants, () => running.on);
    let strikes = 0;
    // Every fault happens, each at a random moment of its slot (restarts add their own time to the window).
    const slot = (SECONDS * 1000) / fault.count;
    for (; strikes < fault.count; strikes++) {
      await sleep(slot * (0.3 + Math.random() * 0.6));
      await fault.strike(instances);
      if (strikes === Math.floor(fault.count / 2)) await rotateSecret(instances.any, tenants, '/m-all', receiver);
    }
    await sleep(2_000);
    running.on = false;
    await traffic;
    console.log(`chaos ${name}: traffic stopped after ${strikes} ${fault.name}; settling for ${SETTLE_MS / 1000} s`);
    await sleep(SETTLE_MS);
    const database = await openDatabase();
    try {
      const verdict = await checkLedger(database, ledger, receiver, tenants.endpoints, `${strikes} ${fault.name}${fault.detail ? ` (${fault.detail()})` : ''}`);
      // An instance that ended by itself (not one of the kills) is a defect whatever the ledger says.
      const crashes = instances.crashes();
      verdict.lines.splice(1, 0, `unexpected exits ${crashes}`);
      verdict.losses += crashes;
      console.log(`chaos ${name}:\n${verdict.lines.map((l) => `  ${l}`).join('\n')}`);
      return verdict;
    } finally {
      await database.destroy();
    }
  } finally {
    // Also when setting up, a strike or the rotation failed: no server process outlives the run.
    running.on = false;
    await traffic;
    await instances.stop();
  }
}

/** The bootstrap site; the merchant is created in each phase (chaos/endpoints.ts). */
const BOOTSTRAP_SITE = { id: 'chaos-site', apiKey: 'chaos-site-key' };

async function main(): Promise<void> {
  const common = {
    ADMIN_TOKEN: 'chaos-admin',
    VENDOR_SITE_ID: BOOTSTRAP_SITE.id,
    VENDOR_API_KEY: BOOTSTRAP_SITE.apiKey,
    VAULT_KEY: randomBytes(32).toString('base64'),
    MERCHANT_SIGNING_KEY: 'chaos-signing-key',
    HOLD_SECONDS: '15',
    NOTIFY_RETRY_SCHEDULE: '0,1s,1s,2s,2s,3s,5s,5s',
    RATE_LIMIT_READ: '1000000',
    RATE_LIMIT_WRITE: '1000000',
    LOG_LEVEL: 'warn',
    // The merchants' endpoints are the local receiver (the default allows only public addresses).
    ENDPOINT_ALLOWED_NETWORKS: 'loopback',
  };
  const verdicts: Verdict[] = [];

  const receiver = await startReceiver(`whsec_${Buffer.from(common.MERCHANT_SIGNING_KEY).toString('base64')}`);
  if (PHASES.includes('sqlite')) {
    const dir = mkdtempSync(join(tmpdir(), 'sleeve-chaos-'));
    try {
      const file = join(dir, 'chaos.db');
      const env = { ...common, DATABASE_URL: `file:${file}`, MERCHANT_ENDPOINT: receiver.url };
      verdicts.push(await phase('SQLite, one instance', await startInstances(1, env), receiver, () => createDatabase({ kind: 'sqlite', path: file })));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  const base = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
  const redis = process.env.TEST_REDIS_URL ?? process.env.REDIS_URL;
  /** Two instances on a fresh schema (dropped after), with `fault` or kills; `route` is their way to the database. */
  const onPostgres = async (name: string, fault?: (base: string, applicationName: string) => Promise<Fault & { close(): Promise<void>; route?(url: URL): URL }>) => {
    const schema = `chaos_${randomBytes(4).toString('hex')}`;
    const url = new URL(base!);
    url.searchParams.set('schema', schema);
    url.searchParams.set('application_name', schema); // what the terminations pick the instances' connections by
    const striking = await fault?.(base!, schema);
    const route = striking?.route?.(url) ?? url;
    const env = { ...common, DATABASE_URL: route.toString(), REDIS_URL: redis!, REDIS_PREFIX: `${schema}:`, MERCHANT_ENDPOINT: receiver.url };
    try {
      verdicts.push(await phase(name, await startInstances(2, env), receiver, () => createDatabase({ kind: 'postgres', url: url.toString() }), striking));
    } finally {
      await striking?.close();
      const admin = await createDatabase({ kind: 'postgres', url: base! });
      await admin.db.schema.dropSchema(schema).ifExists().cascade().execute();
      await admin.destroy();
    }
  };
  if (base?.startsWith('postgres') && redis) {
    if (PHASES.includes('postgres')) await onPostgres('PostgreSQL + Redis, two instances');
    if (PHASES.includes('terminate')) await onPostgres('PostgreSQL connections terminated, two instances', terminator);
    if (PHASES.includes('silence')) await onPostgres('PostgreSQL connections gone silent, two instances', silencer);
  } else {
    console.log('chaos: PostgreSQL phases skipped (set TEST_DATABASE_URL and TEST_REDIS_URL)');
  }
  await receiver.close();
  const lost = verdicts.reduce((n, v) => n + v.losses, 0);
  console.log(lost === 0 ? 'chaos: nothing lost, nothing charged twice' : `chaos: ${lost} losses`);
  process.exit(lost === 0 ? 0 : 1);
}

await main();
