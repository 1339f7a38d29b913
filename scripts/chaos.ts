/**
 * `npm run chaos`: real traffic against real server processes killed (SIGKILL) at random moments and restarted,
 * first one instance on SQLite, then two instances on one PostgreSQL schema and Redis (when TEST_DATABASE_URL and
 * TEST_REDIS_URL, or DATABASE_URL and REDIS_URL, name them). Clients keep a ledger of every success they were told
 * of; after the killing stops and the servers have had time to finish what was due, the ledger is checked against the
 * database and the merchant's receiver. It prints the figures and exits 1 on any loss (issue 14).
 *
 *   npm run chaos                         # both phases, about 2 × (CHAOS_SECONDS + settle) 
 *   CHAOS_SECONDS=20 CHAOS_KILLS=10 npm run chaos
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createDatabase } from '../src/db/database.ts';
import { checkLedger, type Verdict } from './chaos/check.ts';
import { Ledger } from './chaos/ledger.ts';
import { startInstances, type Instances } from './chaos/instances.ts';
import { startReceiver } from './chaos/receiver.ts';
import { runTraffic } from './chaos/traffic.ts';

const SECONDS = Number(process.env.CHAOS_SECONDS ?? 40);
const KILLS = Number(process.env.CHAOS_KILLS ?? 12);
/** Past the pay flow's stale bound (60 s) and one reconciliation poll (30 s): what a crash left is settled by then. */
const SETTLE_MS = Number(process.env.CHAOS_SETTLE_SECONDS ?? 100) * 1000;

async function phase(name: string, instances: Instances, receiver: Awaited<ReturnType<typeof startReceiver>>, openDatabase: () => ReturnType<typeof createDatabase>): Promise<Verdict> {
  const ledger = new Ledger();
  const running = { on: true };
  console.log(`chaos ${name}: ${KILLS} kills over about ${SECONDS} s of traffic`);
  const traffic = runTraffic(instances, ledger, () => running.on);
  let kills = 0;
  // Every kill happens, each at a random moment of its slot (restarts add their own time to the window).
  const slot = (SECONDS * 1000) / KILLS;
  for (; kills < KILLS; kills++) {
    await sleep(slot * (0.3 + Math.random() * 0.6));
    await instances.killAndRestart(Math.floor(Math.random() * instances.count));
  }
  await sleep(2_000);
  running.on = false;
  await traffic;
  console.log(`chaos ${name}: traffic stopped after ${kills} kills; settling for ${SETTLE_MS / 1000} s`);
  await sleep(SETTLE_MS);
  const database = await openDatabase();
  try {
    const verdict = await checkLedger(database, ledger, receiver, kills);
    console.log(`chaos ${name}:\n${verdict.lines.map((l) => `  ${l}`).join('\n')}`);
    return verdict;
  } finally {
    await database.destroy();
    await instances.stop();
  }
}

async function main(): Promise<void> {
  const common = {
    ADMIN_TOKEN: 'chaos-admin',
    VENDOR_SITE_ID: 'chaos-site',
    VENDOR_API_KEY: 'chaos-site-key',
    VAULT_KEY: randomBytes(32).toString('base64'),
    MERCHANT_SIGNING_KEY: 'chaos-signing-key',
    HOLD_SECONDS: '15',
    NOTIFY_RETRY_SCHEDULE: '0,1s,1s,2s,2s,3s,5s,5s',
    RATE_LIMIT_READ: '1000000',
    RATE_LIMIT_WRITE: '1000000',
    LOG_LEVEL: 'warn',
  };
  const verdicts: Verdict[] = [];

  const receiver = await startReceiver();
  const dir = mkdtempSync(join(tmpdir(), 'sleeve-chaos-'));
  try {
    const file = join(dir, 'chaos.db');
    const env = { ...common, DATABASE_URL: `file:${file}`, MERCHANT_ENDPOINT: receiver.url };
    verdicts.push(await phase('SQLite, one instance', await startInstances(1, env), receiver, () => createDatabase({ kind: 'sqlite', path: file })));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  const base = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
  const redis = process.env.TEST_REDIS_URL ?? process.env.REDIS_URL;
  if (base?.startsWith('postgres') && redis) {
    receiver.reset();
    const schema = `chaos_${randomBytes(4).toString('hex')}`;
    const url = new URL(base);
    url.searchParams.set('schema', schema);
    const env = { ...common, DATABASE_URL: url.toString(), REDIS_URL: redis, REDIS_PREFIX: `${schema}:`, MERCHANT_ENDPOINT: receiver.url };
    try {
      verdicts.push(await phase('PostgreSQL + Redis, two instances', await startInstances(2, env), receiver, () => createDatabase({ kind: 'postgres', url: url.toString() })));
    } finally {
      const admin = await createDatabase({ kind: 'postgres', url: base });
      await admin.db.schema.dropSchema(schema).ifExists().cascade().execute();
      await admin.destroy();
    }
  } else {
    console.log('chaos: PostgreSQL phase skipped (set TEST_DATABASE_URL and TEST_REDIS_URL)');
  }
  await receiver.close();
  const lost = verdicts.reduce((n, v) => n + v.losses, 0);
  console.log(lost === 0 ? 'chaos: nothing lost, nothing charged twice' : `chaos: ${lost} losses`);
  process.exit(lost === 0 ? 0 : 1);
}

await main();
