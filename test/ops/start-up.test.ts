/**
 * What a start loads (mcp/lazy-door.ts): the MCP door, its SDK, Ajv and zod, a seventh of the start-up, only on the
 * first request to /mcp. A real process, its module loads watched by a resolve hook; the MCP SDK's own client.
 */
import { describe, expect, it } from 'vitest';
import { mcpClient } from '../agents/mcp-support.ts';
import { VALID_ORDER } from '../support/gateway.ts';
import { startProcess, startupRefusal } from '../support/process.ts';

const MCP_DOOR = /^(dist\/)?mcp\/mcp-door\.(ts|js)$/u;

describe('start-up', () => {
  it('serves without the MCP door until /mcp is first asked, then loads it and answers', async () => {
    const server = await startProcess({ DATABASE_URL: ':memory:' }, 'node', { modules: true });
    expect((await fetch(`${server.url}/api/sleeve-options`)).status).toBe(200);
    expect(server.modules()).toContainEqual(expect.stringMatching(/^(dist\/)?src\/server\.(ts|js)$/u));
    expect(server.modules().filter((path) => MCP_DOOR.test(path))).toEqual([]);

    const agent = await mcpClient(server.url);
    const options = await agent.call('get_sleeve_options');
    expect(options.isError).toBeFalsy();
    expect(options.structuredContent).toMatchObject({ charLimit: 20 });
    expect(server.modules().filter((path) => MCP_DOOR.test(path))).toHaveLength(1);
    await agent.client.close();
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  });

  it('with PORT=0 and no PUBLIC_URL, hands out links to the port it listens on, not port 0', async () => {
    const server = await startProcess({ DATABASE_URL: ':memory:', PORT: '0' });
    const port = new URL(server.url).port;
    const created = await fetch(`${server.url}/api/orders`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(VALID_ORDER) });
    const { payUrl } = (await created.json()) as { payUrl: string };
    expect(new URL(payUrl).port).toBe(port);
    expect(payUrl.startsWith(`http://localhost:${port}/pay/`)).toBe(true);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  });

  it('stops with one line naming HOST when it cannot listen there (exit 2), and naming PORT when it is taken', async () => {
    for (const port of ['0', '4999']) {
      const refused = startupRefusal({ HOST: '300.1.1.1', PORT: port });
      expect(refused.status).toBe(2);
      // ENOTFOUND, or EAI_AGAIN where no name server answers.
      expect(refused.lines).toEqual([expect.stringMatching(/^sleeve-gateway: bad configuration: HOST: cannot listen on "300\.1\.1\.1" \((ENOTFOUND|EAI_AGAIN|EAI_NONAME)\)\.$/u)]);
    }
    const server = await startProcess({ DATABASE_URL: ':memory:' });
    const taken = startupRefusal({ PORT: new URL(server.url).port, HOST: '127.0.0.1' });
    expect(taken.status).toBe(1);
    expect(taken.lines).toEqual([`sleeve-gateway: failed to start: PORT ${new URL(server.url).port} is in use by another process.`]);
    server.child.kill('SIGTERM');
    await server.exited;
  });

  it('refuses a bad DATABASE_URL, REDIS_URL or MERCHANT_ENDPOINT without echoing its user or password (exit 2)', () => {
    const cases: Array<[string, string, string]> = [
      ['DATABASE_URL', 'postgress://admin:Sup3rS3cret@db.internal/event', '"postgress://***@db.internal/event" must be file:PATH, :memory: or postgres://…'],
      ['REDIS_URL', 'http://:R3disPassw0rd@cache.internal:6379', '"http://***@cache.internal:6379" must start with redis:// or rediss://.'],
      ['MERCHANT_ENDPOINT', 'ftp://user:MerchPass@shop', '"ftp://***@shop" must start with http:// or https://.'],
    ];
    for (const [name, value, shown] of cases) {
      const refused = startupRefusal({ [name]: value });
      expect([refused.status, refused.lines]).toEqual([2, [`sleeve-gateway: bad configuration: ${name}: ${shown}`]]);
    }
  });

  it('refuses where NODE_ENV=production a staff token, metrics token or site key short enough to guess, and warns of one elsewhere, never showing it', async () => {
    // An outside security review tried about 1,400 staff tokens a second; the README's example was change-me.
    for (const name of ['ADMIN_TOKEN', 'METRICS_TOKEN', 'VENDOR_API_KEY']) {
      const refused = startupRefusal({ NODE_ENV: 'production', [name]: 'change-me' });
      expect([refused.status, refused.lines], name).toEqual([2, [
        `sleeve-gateway: bad configuration: ${name}: is 9 characters: anyone who reaches the service can try values as fast as it answers, so in production it must be at least 24. Make one with: openssl rand -base64 32`,
      ]]);
    }
    const strong = await startProcess({ DATABASE_URL: ':memory:', NODE_ENV: 'production', ADMIN_TOKEN: 'x'.repeat(24) });
    expect(strong.output()).not.toMatch(/shorter than/u);
    strong.child.kill('SIGTERM');
    expect(await strong.exited).toBe(0);

    const laptop = await startProcess({ DATABASE_URL: ':memory:', ADMIN_TOKEN: 'change-me' });
    const warnings = laptop.output().split('\n').filter((line) => line.includes('shorter than'));
    expect(warnings).toHaveLength(1);
    expect(JSON.parse(warnings[0]!)).toMatchObject({ level: 'warn', variable: 'ADMIN_TOKEN' });
    expect(laptop.output()).not.toContain('change-me');
    laptop.child.kill('SIGTERM');
    expect(await laptop.exited).toBe(0);
  });
});
