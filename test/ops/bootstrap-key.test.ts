/**
 * The bootstrap site's key on a database several instances share (a reviewer's finding): one instance started without
 * VENDOR_API_KEY generated a key and stored it over the shared one, and every platform client of every instance got
 * 401 until a correctly configured instance restarted. Now such an instance refuses to start, naming the variable,
 * and the stored key stays. (SQLite's file belongs to one process: there a generated key still replaces it, printed.)
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ConfigError, createGateway } from '../../src/index.ts';
import { forgetSchema, schemaEnv, testDatabaseUrl } from '../support/databases.ts';
import { afterThisTest } from '../support/gateway.ts';

describe.skipIf(!testDatabaseUrl())(`the bootstrap key on a shared PostgreSQL database${testDatabaseUrl() ? '' : ' (skipped: set TEST_DATABASE_URL)'}`, () => {
  it('refuses an instance whose generated key would replace the stored one, and keeps the stored key', async () => {
    const schema = `boot_${randomBytes(5).toString('hex')}`;
    afterThisTest(() => forgetSchema(schema, schema));
    const shared = { ...schemaEnv(schema, schema), VENDOR_SITE_ID: 'site_shared' };
    const first = await createGateway({ env: { ...shared, VENDOR_API_KEY: 'the-shared-key' } });
    afterThisTest(() => first.dispose());

    const refused = await createGateway({ env: shared }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ConfigError);
    expect((refused as ConfigError).variable).toBe('VENDOR_API_KEY');
    expect((refused as Error).message).toMatch(/site_shared is already stored/u);
    expect((refused as Error).message).not.toContain('the-shared-key');

    const auth = `Basic ${Buffer.from('site_shared:the-shared-key').toString('base64')}`;
    const card = { cardNumber: '4242424242424242', expirationMonth: 12, expirationYear: 2030, cardHolderName: 'Ada Lovelace' };
    const answer = await first.fetch(new Request('http://localhost/v1/tokenization/tokenize', { method: 'POST', headers: { authorization: auth, 'content-type': 'application/json' }, body: JSON.stringify(card) }));
    expect(answer.status).toBe(200);
  });
});
