/**
 * Two edits that read the same state, raced on two real instances sharing one PostgreSQL schema and one Redis:
 *  - a merchant's two rotations of one endpoint's secret at once (a double click that two instances serve): each
 *    answer's secret still signs, and so does the secret both replaced — a rotation that wrote over the other's
 *    (both reading the same current secret) would leave a merchant holding a secret nothing signs with;
 *  - staff publishing the sleeve options from the same version at once: one set is published, the other refused as
 *    edited from a stale version (VALIDATION_FAILED, field baseVersion), never both, never a 500.
 * Both are decided in the database (a conditional update; the version as the table's key), so they hold across
 * instances. Runs when TEST_DATABASE_URL and TEST_REDIS_URL are set (CI sets both); says so when skipped.
 */
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { basicAuth } from '../support/gateway.ts';
import { postJson, startInstances, staffQuery } from '../support/instances.ts';
import { startReceiver } from '../support/receiver.ts';

const DATABASE = process.env.TEST_DATABASE_URL;
const REDIS = process.env.TEST_REDIS_URL;
const ADMIN = 'race-edits-admin';
const SITE = 'site_race_edits';
const KEY = 'race-edits-api-key';
const ENV = { ADMIN_TOKEN: ADMIN, VENDOR_SITE_ID: SITE, VENDOR_API_KEY: KEY };
const merchant = { authorization: basicAuth(SITE, KEY) };
const ROUNDS = 12;

const PUBLISH = `mutation ($input: SleeveOptionsInput!) { updateSleeveOptions(input: $input) { version sizes } }`;
const OPTIONS = `{ sleeveOptions { version sizes fonts threads charLimit } }`;

describe.skipIf(!DATABASE || !REDIS)(
  `staff and merchant edits raced on two instances${!DATABASE || !REDIS ? ' (skipped: set TEST_DATABASE_URL and TEST_REDIS_URL)' : ''}`,
  () => {
    it('two rotations of one secret at once, one on each instance: every secret handed out, and the one replaced, signs', { timeout: 60_000 }, async () => {
      const receiver = await startReceiver();
      const { processes } = await startInstances('race_edits', ENV);
      const [a, b] = processes.map((p) => p.url) as [string, string];
      const endpoints: Array<{ id: string; secret: string }> = [];
      for (let i = 0; i < ROUNDS; i++) {
        const created = await postJson(a, '/v1/webhooks/endpoints', { url: `${receiver.url}/round-${i}` }, merchant);
        expect(created.status, JSON.stringify(created.body)).toBe(201);
        endpoints.push({ id: created.body.id, secret: created.body.secret });
      }
      const rotations = await Promise.all(
        endpoints.map(({ id }) => Promise.all([a, b].map((base) => postJson(base, `/v1/webhooks/endpoints/${id}/rotate-secret`, {}, merchant)))),
      );
      for (const [i, { id, secret }] of endpoints.entries()) {
        const answers = rotations[i]!;
        for (const answer of answers) expect(answer.status, JSON.stringify(answer.body)).toBe(200);
        const handedOut = answers.map((answer) => answer.body.secret as string);
        expect(new Set([secret, ...handedOut]).size, `endpoint ${id}`).toBe(3);
        const sent = await postJson(b, `/v1/webhooks/endpoints/${id}/test`, {}, merchant);
        expect(sent.status, JSON.stringify(sent.body)).toBe(202);
        const [delivered] = await receiver.waitFor(i + 1, 10_000).then((all) => all.filter((r) => r.path.startsWith(`/round-${i}/`)));
        expect(delivered, `endpoint ${id}: its test event`).toBeDefined();
        for (const key of [secret, ...handedOut]) {
          expect(() => new Webhook(key).verify(delivered!.raw, delivered!.headers as Record<string, string>), `endpoint ${id}`).not.toThrow();
        }
      }
    });

    it('two publishes of the options from one version at once, one on each instance: one is published, the other refused as stale', { timeout: 60_000 }, async () => {
      const { processes } = await startInstances('race_edits', ENV);
      const [a, b] = processes.map((p) => p.url) as [string, string];
      const { sleeveOptions: first } = await staffQuery(a, ADMIN, OPTIONS);
      const choices = (values: string[]) => values.map((value) => ({ value }));
      let version = first.version as number;
      for (let round = 0; round < ROUNDS; round++) {
        const edited = (by: string) => ({
          baseVersion: version,
          sizes: choices([...first.sizes, `Size ${round} ${by}`]),
          fonts: choices(first.fonts),
          threads: choices(first.threads),
          charLimit: first.charLimit,
        });
        const answers = await Promise.all(
          (['A', 'B'] as const).map((by, i) => postJson([a, b][i]!, '/graphql', { query: PUBLISH, variables: { input: edited(by) } }, { authorization: `Bearer ${ADMIN}` })),
        );
        const published = answers.filter((answer) => answer.body.data?.updateSleeveOptions);
        const refused = answers.filter((answer) => answer.body.errors);
        expect(published, `round ${round}: ${JSON.stringify(answers.map((x) => x.body))}`).toHaveLength(1);
        expect(refused.map((answer) => [answer.status, answer.body.errors[0].extensions])).toEqual([
          [200, expect.objectContaining({ code: 'VALIDATION_FAILED', field: 'baseVersion' })],
        ]);
        const winner = published[0]!.body.data.updateSleeveOptions;
        expect(winner.version).toBe(version + 1);
        // Both instances now offer the winner's set: the refused one changed nothing.
        for (const base of [a, b]) expect((await staffQuery(base, ADMIN, OPTIONS)).sleeveOptions).toMatchObject({ version: winner.version, sizes: winner.sizes });
        version = winner.version;
      }
    });
  },
);
