/**
 * The durable baseline of bench/webhooks.ts's throughput (issue 19): what any dispatcher that keeps the documented
 * promises must do per delivery, with no gateway around it, in a process of its own as the gateway is. It sends the
 * POSTs a receiver got from the dispatcher (argv[2], as bench/webhooks-direct.ts), argv[3] at a time, as the
 * dispatcher does (delivery-job.ts, delivery-attempt-service.ts), on raw better-sqlite3 (argv[5], a fresh file given
 * the project's schema by its migrations, the gateway's pragmas):
 *
 *  - each message stored sealed (AES-256-GCM, as a `/token-updated` body is at rest), one delivery row per message;
 *  - claimed by a lease in a transaction (the due rows read, leased by a conditional update, their bodies read);
 *  - each body opened and signed (the Standard Webhooks headers and `/token-updated`'s `signature`, with the
 *    project's own signing functions), then POSTed (node:http, kept-alive connections, the answer read to the end);
 *  - the attempts recorded several to a commit (each delivery's state under its lease, the attempts in one insert,
 *    the endpoint's health), and in that same transaction the slots they leave refilled by the next claim; sent
 *    only after the COMMIT, the gateway's GATHER_MS and GATHER_MAX, its statements' text (its trace);
 *  - those commits, and the claims', without waiting for the disk, as the gateway's (src/db/asynchronous-commit.ts:
 *    lost in a power cut, an attempt is made again); the messages are queued under a synced commit.
 *
 * What it leaves out: kysely, the group commit driver, metrics, logs, events, the endpoint re-read and the narrowing
 * at send time. So its rate over the direct POSTs' is the most a dispatcher doing this durable work reaches here:
 * the ceiling of the throughput figure. argv[4] passes, each on rows of its own. Prints "done" and exits.
 */
import { readFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { randomBytes } from 'node:crypto';
import { createDatabase } from '../src/db/database.ts';
import { timeOrderedId } from '../src/kernel/tokens.ts';
import { endpointBodySignature, endpointHeaders, endpointKey } from '../src/notifications/signing.ts';
import { vaultCrypto } from './write-baseline-flows.ts';
import { postKeptAlive } from './lib.ts';
import { openBaselineSqlite } from './write-baseline-sqlite.ts';

type Row = Record<string, unknown>;
const posts = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as Array<{ url: string; headers: Record<string, string>; body: string }>;
const width = Number(process.argv[3]);
const passes = Number(process.argv[4]);
const dbPath = process.argv[5]!;
const LEASE_MS = 15_000;
const GATHER_MS = 1;
const GATHER_MAX = 64;
const ENDPOINT = 'ep_durable';
const SITE = 'site_durable';
const OWNER = `deliverer_${randomBytes(8).toString('hex')}`;

const schema = await createDatabase({ kind: 'sqlite', path: dbPath, synchronous: 'full' });
await schema.migrate();
await schema.destroy();
const db = openBaselineSqlite(dbPath, 'full');
const vault = vaultCrypto(randomBytes(32));
const secret = `whsec_${randomBytes(24).toString('base64')}`;
const key = endpointKey(secret);
const agent = new Agent({ keepAlive: true, maxSockets: width });
const base = new URL(posts[0]!.url).origin;

const kept = new Map<string, ReturnType<typeof db.prepare>>();
const statement = (sql: string) => kept.get(sql) ?? kept.set(sql, db.prepare(sql)).get(sql)!;
const list = (n: number) => Array.from({ length: n }, () => '?').join(', ');
const SQL = {
  due: 'select * from "webhook_deliveries" where "endpoint_id" = ? and "status" = ? and "next_attempt_at" <= ? order by "next_attempt_at" asc limit +?',
  lease: (n: number) => `update "webhook_deliveries" set "lease_owner" = ?, "lease_until" = ?, "next_attempt_at" = ? where "status" = ? and "next_attempt_at" <= ? and "id" in (${list(n)})`,
  bodies: (n: number) => `select "id", "path", "body" from "outbox_notifications" where "id" in (${list(n)})`,
  recorded:
    'update "webhook_deliveries" set "status" = ?, "attempt_count" = ?, "round_attempts" = ?, "next_attempt_at" = ?, "lease_owner" = ?, "lease_until" = ?, "updated_at" = ?, "delivered_at" = ?, "last_error" = ? where "id" = ? and "lease_owner" = ? and "version" = ?',
  attempts: (n: number) => `insert into "webhook_delivery_attempts" ("id", "delivery_id", "attempt", "started_at", "duration_ms", "status_code", "response_excerpt", "error") values ${Array.from({ length: n }, () => '(?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
  health: 'update "webhook_endpoints" set "failing_since" = ? where "id" = ? returning *',
};

statement(
  'insert into "webhook_endpoints" ("id", "site_id", "url", "description", "event_types", "enabled", "secret_sealed", "previous_secret_sealed", "previous_secret_until", "disabled_reason", "failing_since", "throttled_until", "created_at", "updated_at") values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
).run(ENDPOINT, SITE, base, 'durable baseline', '[]', 1, vault.seal(secret), null, null, null, null, null, Date.now(), Date.now());

/** One pass's messages and deliveries, all due, written before the pass (its time runs from the first arrival). */
function queue(pass: number): void {
  const message = statement('insert into "outbox_notifications" ("id", "site_id", "path", "body", "status", "subject", "attempt_count", "next_attempt_at", "lease_owner", "lease_until", "created_at", "updated_at", "delivered_at", "last_error") values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
  const delivery = statement('insert into "webhook_deliveries" ("id", "message_id", "endpoint_id", "site_id", "path", "body", "status", "attempt_count", "next_attempt_at", "lease_owner", "lease_until", "created_at", "updated_at", "delivered_at", "last_error") values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
  const now = Date.now();
  db.transaction(() => {
    posts.forEach((post, i) => {
      const id = `msg_${pass}_${i}`;
      const path = new URL(post.url).pathname;
      message.run(id, SITE, path, JSON.stringify({ $sealed: vault.seal(post.body) }), 'DELIVERED', null, 0, null, null, null, now, now, null, null);
      delivery.run(timeOrderedId('dlv_'), id, ENDPOINT, SITE, path, null, 'PENDING', 0, now, null, null, now, now, null, null);
    });
  })();
}

/** Leases up to `limit` due deliveries with their bodies (inside the caller's transaction). */
function claim(limit: number): Array<{ row: Row; body: string }> {
  const now = Date.now();
  const rows = statement(SQL.due).all(ENDPOINT, 'PENDING', now, limit) as Row[];
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  statement(SQL.lease(ids.length)).run(OWNER, now + LEASE_MS, now + LEASE_MS, 'PENDING', now, ...ids);
  const messageIds = [...new Set(rows.map((row) => row.message_id))];
  const bodies = new Map((statement(SQL.bodies(messageIds.length)).all(...messageIds) as Row[]).map((m) => [m.id, String(m.body)]));
  return rows.map((row) => ({ row, body: bodies.get(row.message_id)! }));
}

interface Attempt {
  row: Row;
  status: number;
  startedAt: number;
  durationMs: number;
}

let left = 0;
let sending = 0;
let waiting: Attempt[] = [];
let gather: NodeJS.Timeout | null = null;
let finished: () => void = () => undefined;

async function send({ row, body: stored }: { row: Row; body: string }): Promise<void> {
  const startedAt = Date.now();
  const body = vault.open((JSON.parse(stored) as { $sealed: string }).$sealed);
  const headers = { 'content-type': 'application/json', accept: 'application/json', ...endpointHeaders(String(row.message_id), startedAt, body, [key]), signature: endpointBodySignature(body, key) };
  sending++;
  const began = performance.now();
  const status = await postKeptAlive(agent, `${base}${String(row.path)}`, headers, body);
  sending--;
  // Recorded as delivered below: the bench's receiver answers 200, and anything else is the bench's own failure.
  if (status < 200 || status >= 300) throw new Error(`the receiver answered ${status}`);
  waiting.push({ row, status, startedAt, durationMs: performance.now() - began });
  schedule();
}

function schedule(): void {
  if (waiting.length === 0) return;
  if (waiting.length >= GATHER_MAX || sending === 0) flush();
  else gather ??= setTimeout(flush, GATHER_MS);
}

/** One commit for the attempts gathered: their states, the attempts, the endpoint's health, and the next claim. */
function flush(): void {
  if (gather) clearTimeout(gather);
  gather = null;
  const batch = waiting;
  waiting = [];
  const now = Date.now();
  statement('PRAGMA synchronous = NORMAL').run();
  statement('begin immediate').run();
  statement('savepoint member').run();
  for (const { row } of batch) statement(SQL.recorded).run('DELIVERED', 1, 1, null, null, null, now, now, null, row.id, OWNER, row.version);
  statement(SQL.attempts(batch.length)).run(...batch.flatMap((a) => [timeOrderedId('att_'), a.row.id, 1, a.startedAt, Math.round(a.durationMs), a.status, null, null]));
  statement(SQL.health).all(null, ENDPOINT);
  const next = claim(batch.length);
  statement('release member').run();
  statement('commit').run();
  statement('PRAGMA synchronous = FULL').run();
  left -= batch.length;
  for (const claimed of next) void send(claimed);
  if (left === 0) finished();
}

for (let pass = 0; pass < passes; pass++) {
  queue(pass);
  left = posts.length;
  const done = new Promise<void>((resolve) => (finished = resolve));
  statement('PRAGMA synchronous = NORMAL').run();
  statement('begin immediate').run();
  const first = claim(width);
  statement('commit').run();
  statement('PRAGMA synchronous = FULL').run();
  for (const claimed of first) void send(claimed);
  await done;
}
agent.destroy();
console.log('done');
process.exit(0);
