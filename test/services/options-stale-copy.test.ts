/**
 * A publish refused as stale proves the refusing instance's copy of the options is old: it drops it, so the options
 * it answers next are the ones the refusal names. It kept answering the old set until the other instance's
 * announcement arrived (through Redis), and the two-instance race test caught the loser still offering version 4
 * right after refusing a publish because version 5 existed. Here two gateways share one database and no bus, so
 * no announcement ever arrives: only the refusal can bring the copy up to date.
 */
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { testGateway } from '../support/gateway.ts';
import { tempDir } from '../support/temp-dir.ts';

const OPTIONS = '{ sleeveOptions { version sizes fonts threadChoices { value color } charLimit } }';
const PUBLISH = 'mutation ($input: SleeveOptionsInput!) { updateSleeveOptions(input: $input) { version } }';

it('drops its copy when a publish is refused as stale, and answers the newer set next', async () => {
  const env = { DATABASE_URL: `file:${join(tempDir('sleeve-options-'), 'shared.db')}` };
  const a = await testGateway({ env });
  const b = await testGateway({ env });
  const read = async (t: typeof a) => (await t.gql(OPTIONS, undefined, { token: t.adminToken })).data.sleeveOptions;
  const first = await read(a);
  expect((await read(b)).version).toBe(first.version);
  const input = (extra: string) => ({
    baseVersion: first.version,
    sizes: [...first.sizes, extra].map((value: string) => ({ value })),
    fonts: first.fonts.map((value: string) => ({ value })),
    threads: first.threadChoices,
    charLimit: first.charLimit,
  });
  expect((await a.gql(PUBLISH, { input: input('XL') }, { token: a.adminToken })).data.updateSleeveOptions.version).toBe(first.version + 1);
  const refused = await b.gql(PUBLISH, { input: input('XXL') }, { token: b.adminToken });
  expect(refused.errors?.[0]?.extensions).toMatchObject({ code: 'VALIDATION_FAILED', field: 'baseVersion' });
  expect(await read(b)).toMatchObject({ version: first.version + 1, sizes: expect.arrayContaining(['XL']) });
});
