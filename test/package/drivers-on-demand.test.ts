/**
 * The package loads the PostgreSQL and Redis clients only for a gateway whose DATABASE_URL or REDIS_URL names them
 * (src/kernel/drivers.ts): a frontend team's in-memory gateway on SQLite never loads `pg` or `ioredis`, whose import
 * it paid in each test file's fresh module graph. Each case runs in a child process of its own, so the modules it
 * loads are its own alone.
 */
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');

/** Imports the package's entry, runs `work` with it, and says which of the two clients were loaded. */
function loadedBy(work: string, env: Record<string, string> = {}): { pg: boolean; ioredis: boolean } {
  const script = `
    import { createRequire } from 'node:module';
    const { createGateway, createManualClock } = await import('./src/index.ts');
    ${work}
    const cache = createRequire(import.meta.url).cache;
    const loaded = (name) => Object.keys(cache).some((path) => path.includes('/node_modules/' + name + '/'));
    console.log(JSON.stringify({ pg: loaded('pg'), ioredis: loaded('ioredis') }));`;
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, ...env }, timeout: 60_000 });
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout.trim().split('\n').at(-1)!) as { pg: boolean; ioredis: boolean };
}

it('an in-memory gateway taking an order loads neither pg nor ioredis', () => {
  const inMemory = `
    const gateway = await createGateway({ clock: createManualClock() });
    const answer = await gateway.fetch(new Request('http://localhost/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ eventInfo }' }) }));
    if (answer.status !== 200) throw new Error('GraphQL answered ' + answer.status);
    await gateway.dispose();`;
  // Before, importing the package loaded both.
  expect(loadedBy(inMemory)).toEqual({ pg: false, ioredis: false });
});

const REDIS = process.env.TEST_REDIS_URL;
it.skipIf(!REDIS)(`a gateway given REDIS_URL loads ioredis then${REDIS ? '' : ' (skipped: set TEST_REDIS_URL)'}`, () => {
  const withRedis = `
    const gateway = await createGateway({ clock: createManualClock(), env: { REDIS_URL: process.env.TEST_REDIS_URL, REDIS_PREFIX: 'drivers-on-demand:' } });
    await gateway.dispose();`;
  expect(loadedBy(withRedis).ioredis).toBe(true);
});
