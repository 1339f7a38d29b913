import { describe, expect, it } from 'vitest';
import { startupRefusal } from './support/process.ts';
import { ConfigError, loadConfig, parseSchedule } from '../src/kernel/config.ts';
import { createDatabase } from '../src/db/database.ts';

describe('configuration (docs/running.md#configuration)', () => {
  it('has a default for every variable that works on a laptop', () => {
    const { config, generated } = loadConfig({});
    expect(config.port).toBe(4000);
    expect(config.host).toBe('127.0.0.1');
    expect(config.publicUrl).toBe('http://localhost:4000');
    expect(config.database).toEqual({ kind: 'sqlite', path: './data/sleeve.db', synchronous: 'full' }); // durable by default
    expect(config.redisUrl).toBeNull();
    expect(config.holdSeconds).toBe(300);
    expect(config.merchantEndpoint).toBeNull();
    expect(config.notifyRetrySchedule).toEqual([0, 5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000]);
    expect(config.logLevel).toBe('info');
    expect(generated.map((g) => g.name).sort()).toEqual([
      'ADMIN_TOKEN',
      'MERCHANT_SIGNING_KEY',
      'PROCESSOR_PRIVATE_KEY',
      'PROCESSOR_PUBLIC_KEY',
      'VENDOR_API_KEY',
      'VENDOR_SITE_ID',
    ]);
  });

  it('generates a different random admin token each time, at least 128 bits', () => {
    const a = loadConfig({}).config.adminToken;
    const b = loadConfig({}).config.adminToken;
    expect(a).not.toBe(b);
    expect(Buffer.from(a, 'base64url').length).toBeGreaterThanOrEqual(16);
  });

  it('takes every variable it is given', () => {
    const { config, generated } = loadConfig({
      PORT: '0',
      HOST: '0.0.0.0',
      PUBLIC_URL: 'https://sleeves.example.com/',
      DATABASE_URL: ':memory:',
      HOLD_SECONDS: '30',
      ADMIN_TOKEN: 'a',
      VENDOR_SITE_ID: 's',
      VENDOR_API_KEY: 'k',
      MERCHANT_ENDPOINT: 'http://127.0.0.1:9999/hooks',
      MERCHANT_SIGNING_KEY: 'm',
      NOTIFY_RETRY_SCHEDULE: '0,1s,250ms,2m,1h',
      VAULT_KEY: Buffer.alloc(32, 7).toString('base64'),
      PROCESSOR_PUBLIC_KEY: 'pub',
      PROCESSOR_PRIVATE_KEY: 'priv',
      LOG_LEVEL: 'warn',
      SQLITE_SYNCHRONOUS: 'NORMAL',
    });
    expect(generated).toEqual([]);
    expect(config.port).toBe(0);
    expect(config.publicUrl).toBe('https://sleeves.example.com');
    expect(config.database).toEqual({ kind: 'sqlite', path: ':memory:', synchronous: 'normal' });
    expect(config.holdSeconds).toBe(30);
    expect(config.merchantEndpoint).toBe('http://127.0.0.1:9999/hooks');
    expect(config.notifyRetrySchedule).toEqual([0, 1000, 250, 120_000, 3_600_000]);
    expect(config.vaultKey).toEqual(Buffer.alloc(32, 7));
  });

  it.each([
    ['PORT', 'eighty', 'PORT'],
    ['PORT', '70000', 'PORT'],
    ['HOLD_SECONDS', '-5', 'HOLD_SECONDS'],
    ['PUBLIC_URL', 'not a url', 'PUBLIC_URL'],
    ['DATABASE_URL', 'mysql://x', 'DATABASE_URL'],
    ['REDIS_URL', 'http://127.0.0.1:6379', 'REDIS_URL'],
    ['NOTIFY_RETRY_SCHEDULE', '0,soon', 'NOTIFY_RETRY_SCHEDULE'],
    ['VAULT_KEY', 'c2hvcnQ=', 'VAULT_KEY'],
    // 32 bytes in base64 with a stray character: Buffer.from would skip it and decode a key nobody holds.
    ['VAULT_KEY', `${Buffer.alloc(32, 7).toString('base64').slice(0, 20)}!${Buffer.alloc(32, 7).toString('base64').slice(20)}`, 'VAULT_KEY'],
    ['VAULT_KEY', `"${Buffer.alloc(32, 7).toString('base64')}"`, 'VAULT_KEY'],
    ['LOG_LEVEL', 'loud', 'LOG_LEVEL'],
    ['SQLITE_SYNCHRONOUS', 'off', 'SQLITE_SYNCHRONOUS'],
    // docs/edge.md#cors: an origin is scheme://host[:port], nothing more.
    ['CORS_ORIGINS', 'shop.example', 'CORS_ORIGINS'],
    ['CORS_ORIGINS', 'https://shop.example/app', 'CORS_ORIGINS'],
    ['CORS_ORIGINS', 'https://shop.example,*', 'CORS_ORIGINS'],
  ])('refuses %s=%s with an error naming the variable', (name, value, variable) => {
    let caught: unknown;
    try {
      loadConfig({ [name]: value });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    expect((caught as ConfigError).variable).toBe(variable);
    expect((caught as Error).message.startsWith(`${variable}:`)).toBe(true);
  });

  // Refusals go to stderr and on to the log store: a URL is quoted with its user and password replaced by ***.
  it.each([
    ['DATABASE_URL', 'postgress://admin:Sup3rS3cret@db.internal/event', '"postgress://***@db.internal/event" must be file:PATH'],
    ['REDIS_URL', 'redis//:R3disPassw0rd@cache.internal:6379', '"redis//***@cache.internal:6379" is not a URL.'],
    ['REDIS_URL', 'http://:R3disPassw0rd@cache.internal:6379', '"http://***@cache.internal:6379" must start with redis://'],
    ['MERCHANT_ENDPOINT', 'ftp://user:MerchPass@shop', '"ftp://***@shop" must start with http://'],
    ['PUBLIC_URL', 'ftp://user:p@ss@shop.example', '"ftp://***@shop.example" must start with http://'],
  ])('refuses %s=%s naming the variable, never its user or password', (name, value, shown) => {
    let caught: unknown;
    try {
      loadConfig({ [name]: value });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    expect((caught as Error).message).toContain(`${name}: ${shown}`);
    expect((caught as Error).message).not.toMatch(/S3cret|Passw0rd|MerchPass|admin|user|p@ss/u);
  });

  it('refuses a METRICS_TOKEN of only spaces, which would leave /metrics open to anyone', () => {
    expect(loadConfig({}).config.metricsToken).toBeNull();
    expect(loadConfig({ METRICS_TOKEN: '' }).config.metricsToken).toBeNull();
    expect(loadConfig({ METRICS_TOKEN: ' tok ' }).config.metricsToken).toBe('tok');
    for (const blank of [' ', '\t \n']) expect(() => loadConfig({ METRICS_TOKEN: blank })).toThrow(/^METRICS_TOKEN: .*only spaces/u);
  });

  it('parses retry schedules with units', () => {
    expect(parseSchedule('X', '0, 5s, 5m, 2h, 10')).toEqual([0, 5000, 300_000, 7_200_000, 10_000]);
  });

  it('stops start-up with one clear line and a non-zero exit on a bad value, before loading the server', () => {
    const result = startupRefusal({ HOLD_SECONDS: '-1' }, { modules: true });
    expect(result.status).toBe(2);
    const lines = result.lines;
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('HOLD_SECONDS');
    // Told without the server's modules (GraphQL, the doors, the drivers: seconds of a core): only the kernel's.
    expect(result.modules).toContain('src/kernel/config.ts');
    expect(result.modules.filter((path) => path !== 'src/main.ts' && !path.startsWith('src/kernel/'))).toEqual([]);
  });

  it('stops start-up with one line naming SQLITE_SYNCHRONOUS and its choices on a bad value', () => {
    const result = startupRefusal({ SQLITE_SYNCHRONOUS: 'fast' });
    expect(result.status).toBe(2);
    const lines = result.lines;
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/SQLITE_SYNCHRONOUS: .*full.*normal/u);
  });
  it('reads LOG_LEVEL in any case, and names a bad value', () => {
    expect(loadConfig({ LOG_LEVEL: 'INFO' }).config.logLevel).toBe('info');
    expect(loadConfig({ LOG_LEVEL: ' Warn ' }).config.logLevel).toBe('warn');
    expect(() => loadConfig({ LOG_LEVEL: 'loud' })).toThrow(/^LOG_LEVEL: "loud" must be one of debug, info, warn, error, silent\.$/u);
  });

  it('reads DRAIN_SECONDS, 0 to 300, 0 by default (docs/operations.md#readiness)', () => {
    expect(loadConfig({}).config.drainSeconds).toBe(0);
    expect(loadConfig({ DRAIN_SECONDS: '10' }).config.drainSeconds).toBe(10);
    for (const bad of ['-1', '301', 'soon', '1.5']) expect(() => loadConfig({ DRAIN_SECONDS: bad }), bad).toThrow(/^DRAIN_SECONDS: /u);
  });

  it('reads TRUST_PROXY as a hop count or a list, and the venue rate limits (docs/edge.md)', () => {
    expect(loadConfig({}).config.trustProxy).toBeNull();
    expect(loadConfig({ TRUST_PROXY: '1' }).config.trustProxy).toBe('1');
    expect(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8,fc00::/7' }).config.trustProxy).toBe('loopback, 10.0.0.0/8,fc00::/7');
    // A bare number is a hop count alone; inside a list proxy-addr would read `1` as the address 0.0.0.1.
    for (const bad of ['yes', 'true', '10.0.0.0/33', '10.0.0.1,,', '-1', 'loopback, 1', '2,10.0.0.0/8']) {
      expect(() => loadConfig({ TRUST_PROXY: bad }), bad).toThrow(/^TRUST_PROXY: /u);
    }
    expect(loadConfig({}).config.rateLimits).toEqual({ enabled: true, windowMs: 60_000, read: 6000, write: 2400, subjectRead: 120, subjectWrite: 20, ipv6Prefix: 56 });
    expect(loadConfig({ RATE_LIMITS: 'off', RATE_LIMIT_SUBJECT_WRITE: '5' }).config.rateLimits).toMatchObject({ enabled: false, subjectWrite: 5 });
    expect(loadConfig({ RATE_LIMIT_IPV6_PREFIX: '64' }).config.rateLimits.ipv6Prefix).toBe(64);
    for (const bad of ['16', '129', '/64', '48.5']) expect(() => loadConfig({ RATE_LIMIT_IPV6_PREFIX: bad }), bad).toThrow(/^RATE_LIMIT_IPV6_PREFIX: /u);
    expect(() => loadConfig({ RATE_LIMITS: 'maybe' })).toThrow(/^RATE_LIMITS: /u);
  });

  it('reads ENDPOINT_ALLOWED_NETWORKS as a list of addresses, CIDRs and names, none by default (docs/merchant-webhooks.md)', () => {
    expect(loadConfig({}).config.endpointAllowedNetworks).toBeNull();
    expect(loadConfig({ ENDPOINT_ALLOWED_NETWORKS: ' ' }).config.endpointAllowedNetworks).toBeNull();
    expect(loadConfig({ ENDPOINT_ALLOWED_NETWORKS: 'loopback, 192.168.10.0/24,fd00::/8' }).config.endpointAllowedNetworks).toBe('loopback, 192.168.10.0/24,fd00::/8');
    for (const bad of ['1', 'everything', '10.0.0.0/33', 'loopback,,']) {
      expect(() => loadConfig({ ENDPOINT_ALLOWED_NETWORKS: bad }), bad).toThrow(/^ENDPOINT_ALLOWED_NETWORKS: /u);
    }
  });

  it('stops start-up with one line saying why when the database does not answer', () => {
    // Port 1: nothing listens there. The line is the driver's own (it names the address an operator set).
    const result = startupRefusal({ DATABASE_URL: 'postgres://postgres@127.0.0.1:1/sleeve' });
    expect(result.status).toBe(1);
    expect(result.lines).toEqual(['sleeve-gateway: failed to start: connect ECONNREFUSED 127.0.0.1:1']);
  });

  // One parser reads both (src/db/database.ts secondsParameter): one bad value of the second shows it is read. Each
  // value is refused by createDatabase in this process (no connection is tried); the first of each also by a
  // start-up of its own, for the line an operator sees (a start under tsx costs seconds).
  it.each([
    ['connect_timeout', ['ten', '-1', '1.5']],
    ['query_timeout', ['1.5']],
  ])("stops start-up with one line naming %s when DATABASE_URL's is not whole seconds", async (name, values) => {
    const url = (bad: string) => `postgres://postgres@127.0.0.1:1/sleeve?${name}=${bad}`;
    const refusal = (bad: string) => `DATABASE_URL: ${name} "${bad}" must be whole seconds`;
    for (const bad of values) await expect(createDatabase({ kind: 'postgres', url: url(bad) })).rejects.toThrow(new Error(refusal(bad)));
    const result = startupRefusal({ DATABASE_URL: url(values[0]!) });
    expect([result.status, result.lines]).toEqual([1, [`sleeve-gateway: failed to start: ${refusal(values[0]!)}`]]);
  });

  it('stops start-up with one line naming TRUST_PROXY on a bad value', () => {
    const result = startupRefusal({ TRUST_PROXY: '10.0.0.300' });
    expect(result.status).toBe(2);
    const lines = result.lines;
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/TRUST_PROXY: "10\.0\.0\.300" is not a hop count/u);
  });
});
