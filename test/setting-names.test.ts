/**
 * `createGateway({ env })` names a misspelt setting (src/kernel/setting-names.ts). A frontend team's test that wrote
 * `{ HOLD_SECOND: '60', RATE_LIMIT: 'off' }` ran with the 5-minute hold and the rate limits on, and neither the
 * types nor ConfigError said so (a frontend review). The `@ts-expect-error`s below are checked by `tsc` in `npm test`:
 * without the typed `env` they are unused, which tsc reports.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, createGateway, SETTING_NAMES } from '../src/index.ts';
import { resemblance } from '../src/kernel/setting-names.ts';

async function refusal(env: Record<string, string>): Promise<ConfigError> {
  const caught = await createGateway({ env }).then(
    async (gateway) => {
      await gateway.dispose();
      return null;
    },
    (error: unknown) => error,
  );
  expect(caught).toBeInstanceOf(ConfigError);
  return caught as ConfigError;
}

describe("createGateway's env", () => {
  it('rejects a name that looks like a setting but is none, naming the setting', async () => {
    // @ts-expect-error HOLD_SECOND is no setting
    await expect(createGateway({ env: { HOLD_SECOND: '60' } })).rejects.toThrow('HOLD_SECOND: is not a setting the gateway reads; did you mean HOLD_SECONDS?');
    // @ts-expect-error RATE_LIMIT is no setting
    await expect(createGateway({ env: { RATE_LIMIT: 'off' } })).rejects.toThrow('did you mean RATE_LIMITS?');
    expect((await refusal({ hold_seconds: '60' })).variable).toBe('hold_seconds');
    expect((await refusal({ RATE_LIMIT_REED: '10' })).message).toContain('did you mean RATE_LIMIT_READ?');
  });

  it("takes every setting, and leaves alone what the process environment holds (a spread of process.env)", async () => {
    const gateway = await createGateway({ env: { ...process.env, HOLD_SECONDS: '60', RATE_LIMITS: 'off' } });
    expect([gateway.config.holdSeconds, Object.keys(process.env).length > 0]).toEqual([60, true]);
    await gateway.dispose();
  });

  it('names only what resembles a setting', () => {
    expect(['HOME', 'PATH', 'TERM', 'USER', 'LANG', 'SHELL', 'CI'].map(resemblance)).toEqual(Array(7).fill(null));
    expect(SETTING_NAMES.map(resemblance)).toEqual(SETTING_NAMES.map(() => null));
    expect(['HOLD_SECONDS_MAX', 'PORTS', 'VAULT_KEYS'].map(resemblance)).toEqual(['HOLD_SECONDS', 'PORT', 'VAULT_KEY']);
  });

  it('lists exactly the settings the configuration reads', () => {
    const root = resolve(import.meta.dirname, '..');
    const config = ['src/kernel/config.ts', 'src/kernel/config-values.ts'].map((file) => readFileSync(join(root, file), 'utf8')).join('\n');
    const read = new Set([...config.matchAll(/env\.([A-Z][A-Z0-9_]+)|'([A-Z][A-Z0-9_]{2,})'/gu)].map((m) => (m[1] ?? m[2])!));
    expect([...SETTING_NAMES].sort()).toEqual([...read].sort());
  });
});
