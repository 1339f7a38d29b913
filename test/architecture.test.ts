/**
 * The layout's rules (DESIGN.md "Layout" and its rules; issue 13 point 2), checked on the repository by
 * test/support/architecture.ts. Each rule is also run on a tiny temporary tree that breaks exactly that rule, so a
 * checker that silently stopped seeing imports would fail here rather than pass everything.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkArchitecture, RULES, violationsOf, type Rule } from './support/architecture.ts';

const ROOT = resolve(import.meta.dirname, '..');

/** Temporary trees are written with fs, never kept as .ts fixtures in the repository: tsc would check them. */
const trees: string[] = [];
afterAll(() => trees.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'sleeve-architecture-'));
  trees.push(dir);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

/** A small tree that uses every allowed path: the baseline each bad tree adds one wrong file to. */
const CLEAN: Record<string, string> = {
  'src/server.ts': "import type { GraphQLSchema } from 'graphql';\nimport { orderFields } from '../schema/order.ts';\nexport const door = (s: GraphQLSchema) => [s, orderFields];\n",
  'src/kernel/clock.ts': 'export const now = () => Date.now();\n',
  'src/db/database.ts': "import Database from 'better-sqlite3';\nimport { Kysely } from 'kysely';\nexport const open = () => [Database, Kysely];\n",
  'src/events/topics.ts': "import { createPubSub } from '@graphql-yoga/subscription';\nexport const bus = createPubSub();\n",
  'src/orders/order-tables.ts': "import type { Generated } from 'kysely';\nexport interface OrderTable { id: Generated<number> }\n",
  'src/orders/order-repository.ts': "import { sql } from 'kysely';\nimport type { Db } from '../db/database.ts';\nexport const find = (db: any) => db.selectFrom('orders').where(sql`1`);\nexport type { Db };\n",
  'src/orders/order.ts': "import type { OrderTable } from './order-tables.ts';\nexport const isOpen = (row: OrderTable) => row.id > 0;\n",
  'src/orders/order-service.ts': "import { find } from './order-repository.ts';\nimport { isOpen } from './order.ts';\nimport { bus } from '../events/topics.ts';\nimport { now } from '../kernel/clock.ts';\nexport const placeOrder = () => [find, isOpen, bus, now];\n",
  'src/orders/hold-expiry-job.ts': "import { placeOrder } from './order-service.ts';\nexport const job = placeOrder;\n",
  'src/payments/payment-service.ts': "import type { Kysely } from 'kysely';\nimport { placeOrder } from '../orders/order-service.ts';\nimport { isOpen } from '../orders/order.ts';\nexport const pay = (db: Kysely<any>) => [db, placeOrder, isOpen];\n",
  'src/pages/app/dom.js': 'export const $ = (id) => id;\n',
  'src/pages/app/app.js': "import { $ } from './dom.js';\nexport const app = $('app');\n",
  'schema/order.ts': "import SchemaBuilder from '@pothos/core';\nimport { placeOrder } from '../src/orders/order-service.ts';\nimport { isOpen } from '../src/orders/order.ts';\nexport const orderFields = [SchemaBuilder, placeOrder, isOpen];\n",
};

/** Per rule: the files that break it (added to the clean tree) and exactly the violations expected. */
const BROKEN: Record<Rule, { files: Record<string, string>; expected: string[] }> = {
  [RULES.sql]: {
    files: { 'src/orders/order-service.ts': "import { sql } from 'kysely';\nexport const q = (db: any) => db.selectFrom('orders');\n" },
    expected: ['src/orders/order-service.ts → kysely: ', 'src/orders/order-service.ts → .selectFrom( (line 2): '],
  },
  [RULES.areaStorage]: {
    files: { 'src/payments/payment-service.ts': "import type { find } from '../orders/order-repository.ts';\nexport type Find = typeof find;\n" },
    expected: ['src/payments/payment-service.ts → ../orders/order-repository.ts: '],
  },
  [RULES.pureIo]: {
    files: { 'src/orders/order.ts': "import { readFileSync } from 'node:fs';\nexport const read = readFileSync;\n" },
    expected: ['src/orders/order.ts → node:fs: '],
  },
  [RULES.doorStorage]: {
    files: { 'rest-compat/orders.ts': "export const load = () => import('../src/orders/order-repository.ts');\n" },
    expected: ['rest-compat/orders.ts → ../src/orders/order-repository.ts: '],
  },
  [RULES.coreDoor]: {
    files: { 'src/kernel/fields.ts': "export { orderFields } from '../../schema/order.ts';\n" },
    expected: ['src/kernel/fields.ts → ../../schema/order.ts: '],
  },
  [RULES.graphqlInCore]: {
    files: {
      'src/orders/order-service.ts': "import type { GraphQLError } from 'graphql';\nexport type Failure = GraphQLError;\n",
      'src/kernel/bus.ts': "import { createPubSub } from '@graphql-yoga/subscription';\nexport const bus = createPubSub();\n",
    },
    expected: ['src/kernel/bus.ts → @graphql-yoga/subscription: ', 'src/orders/order-service.ts → graphql: '],
  },
  [RULES.cycle]: {
    files: {
      'src/kernel/a.ts': "import { b } from './b.ts';\nexport const a = () => b;\n",
      'src/kernel/b.ts': "import type { a } from './a.ts';\nexport const b = (f: typeof a) => f;\n",
    },
    expected: ['src/kernel/a.ts → src/kernel/b.ts → src/kernel/a.ts: '],
  },
  [RULES.size]: {
    files: { 'src/kernel/long.ts': 'export const x = 1;\n'.repeat(301) },
    expected: ['src/kernel/long.ts → 301 lines: '],
  },
};

const inRepository = checkArchitecture(ROOT);

function expectNone(rule: Rule): void {
  const offenders = violationsOf(inRepository, rule);
  expect(offenders, `${rule} (DESIGN.md "Layout"), ${offenders.length} offender(s):\n  ${offenders.join('\n  ')}\n`).toEqual([]);
}

describe('architecture: the repository keeps the layout rules', () => {
  it('1. talks SQL only in an area repository or src/db', () => expectNone(RULES.sql));
  it("2. reaches another area only through its services, never its tables, repository or jobs", () => expectNone(RULES.areaStorage));
  it("3. keeps an area's pure rules free of I/O", () => expectNone(RULES.pureIo));
  it('4. keeps the doors off storage', () => expectNone(RULES.doorStorage));
  it('5. lets only the composition root import a door', () => expectNone(RULES.coreDoor));
  it('6. keeps yoga and graphql out of the core', () => expectNone(RULES.graphqlInCore));
  it('7. has no import cycle', () => expectNone(RULES.cycle));
  it('8. has no source file over 300 lines', () => expectNone(RULES.size));
});

describe('architecture: the checker itself', () => {
  it('finds nothing in a clean tree that uses every allowed path', () => {
    expect(checkArchitecture(tree(CLEAN))).toEqual([]);
  });

  for (const [rule, { files, expected }] of Object.entries(BROKEN) as [Rule, (typeof BROKEN)[Rule]][]) {
    it(`fails on a tree that breaks only: ${rule}`, () => {
      expect(checkArchitecture(tree({ ...CLEAN, ...files }))).toEqual(expected.map((line) => `${line}${rule}`));
    });
  }
});
