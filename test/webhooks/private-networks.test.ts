/**
 * Merchants' endpoints only on the public internet unless ENDPOINT_ALLOWED_NETWORKS lists the network
 * (docs/merchant-webhooks.md#where-endpoints-may-be): a site must not make the gateway POST to its own host, the
 * venue's network or a metadata service and read the answer in its deliveries. The suites allow `loopback` for their
 * receivers (test/support/gateway.ts); here the default is set back (an empty value) where a test says so.
 */
import { lookup } from 'node:dns/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import ipaddr from 'ipaddr.js';
import { describe, expect, it } from 'vitest';
import { afterThisTest } from '../support/gateway.ts';
import { eventually } from '../support/receiver.ts';
import { deliveriesOf, hooks, merchantSite, webhookGateway } from './support.ts';

const REFUSED_URLS = [
  'http://127.0.0.1:9',
  'http://2130706433/', // 127.0.0.1, as the URL parser reads it
  'http://localhost:9',
  'http://LOCALHOST./',
  'http://shop.localhost',
  'http://[::1]:9',
  'http://[::ffff:127.0.0.1]/',
  'http://10.1.2.3',
  'http://172.16.5.4',
  'http://192.168.0.10',
  'http://169.254.169.254',
  'http://100.64.0.1',
  'http://0.0.0.0',
  'http://[fd00::1]',
  'http://[fe80::1]',
  // Ranges ipaddr.js calls unicast that are not globally reachable (an outside security review found the first two).
  'http://198.18.0.1/',
  'http://[::127.0.0.1]/x',
  'http://[100::1]',
  'http://[2001:2::1]',
  'http://[64:ff9b:1::a]',
  'http://[3fff::1]',
  // Site-local, deprecated (RFC 3879) but still routed inside some networks (a merchant review).
  'http://[fec0::1]/x',
];

/** A receiver on every interface of this machine: reachable at whatever address its name resolves to. */
async function anyInterfaceReceiver(): Promise<{ port: number; paths: string[] }> {
  const paths: string[] = [];
  const server = createServer((req, res) => {
    paths.push(req.url ?? '');
    req.resume().on('end', () => res.writeHead(200).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '0.0.0.0', resolve));
  afterThisTest(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { port: (server.address() as AddressInfo).port, paths };
}

describe('merchant endpoints off the public internet', () => {
  it('are refused by default when the URL names this machine or a private, link-local or reserved address: 422, nothing stored or changed', async () => {
    const t = await webhookGateway({ ENDPOINT_ALLOWED_NETWORKS: '' });
    const site = await merchantSite(t);
    for (const url of REFUSED_URLS) {
      const res = await hooks(t, site, 'POST', '', { url });
      expect(res.status, url).toBe(422);
      expect(res.body, url).toMatchObject({ status: 'error', errors: [{ field: 'url', message: expect.stringMatching(/^must be on the public internet: /u) }] });
      // Said to a merchant, who cannot change the operator's settings.
      expect(JSON.stringify(res.body), url).not.toContain('ENDPOINT_ALLOWED_NETWORKS');
      expect(res.body.errors[0].message.match(/public internet/gu), url).toHaveLength(1);
    }
    expect((await hooks(t, site, 'GET')).body.data).toEqual([]);

    // A name is checked where it is connected to (below); a public address is accepted.
    const named = await hooks(t, site, 'POST', '', { url: 'https://hooks.shop.example', enabled: false });
    expect(named.status, JSON.stringify(named.body)).toBe(201);
    expect((await hooks(t, site, 'POST', '', { url: 'https://8.8.8.8/hooks', enabled: false })).status).toBe(201);
    const moved = await hooks(t, site, 'PATCH', `/${named.body.id}`, { url: 'http://169.254.169.254/latest' });
    expect(moved.status).toBe(422);
    expect((await hooks(t, site, 'GET', `/${named.body.id}`)).body.url).toBe('https://hooks.shop.example');

    // Staff GraphQL creates through the same rule.
    const created = await t.gql(
      'mutation ($siteId: ID!, $input: WebhookEndpointInput!) { createWebhookEndpoint(siteId: $siteId, input: $input) { secret } }',
      { siteId: site.id, input: { url: 'http://169.254.169.254' } },
      { token: t.adminToken },
    );
    expect(created.errors?.[0]?.extensions).toMatchObject({ code: 'VALIDATION_FAILED', field: 'url' });
    expect((await hooks(t, site, 'GET')).body.data).toHaveLength(2);
  });

  it('are allowed in the networks ENDPOINT_ALLOWED_NETWORKS lists, and only those', async () => {
    const t = await webhookGateway({ ENDPOINT_ALLOWED_NETWORKS: 'loopback, 10.0.0.0/8' });
    const site = await merchantSite(t);
    for (const url of ['http://127.0.0.1:9', 'http://localhost:9', 'http://[::1]:9', 'http://10.1.2.3']) {
      expect((await hooks(t, site, 'POST', '', { url, enabled: false })).status, url).toBe(201);
    }
    for (const url of ['http://192.168.0.10', 'http://169.254.169.254']) expect((await hooks(t, site, 'POST', '', { url })).status, url).toBe(422);
  });

  it('are refused where the connection is made when a name resolves to a refused address, and reached once its network is listed', async () => {
    // This machine's name resolves through /etc/hosts to an address of its own (127.0.0.1 here, 127.0.1.1 on a
    // Debian host, a container's private address): a public-looking name that lands inside.
    const name = hostname();
    const addresses = (await lookup(name, { all: true })).map((a) => a.address);
    expect(addresses.filter((address) => ipaddr.process(address).range() === 'unicast'), `${name} resolves to ${addresses.join(', ')}`).toEqual([]);
    const receiver = await anyInterfaceReceiver();

    const refusing = await webhookGateway({ ENDPOINT_ALLOWED_NETWORKS: '' });
    const site = await merchantSite(refusing);
    const created = await hooks(refusing, site, 'POST', '', { url: `http://${name}:${receiver.port}` });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect((await hooks(refusing, site, 'POST', `/${created.body.id}/test`)).status).toBe(202);
    const attempts = await eventually(async () => {
      await refusing.clock.advance(0);
      const [delivery] = await deliveriesOf(refusing, site, created.body.id);
      return delivery?.attempts.length ? (delivery.attempts as Array<{ statusCode: number | null; error: string | null }>) : undefined;
    });
    expect(attempts[0]).toMatchObject({ statusCode: null, error: expect.stringMatching(new RegExp(`^refused: ${name} resolves to an address in the [a-zA-Z]+ range, which is not allowed$`, 'u')) });
    // The range alone: what the name resolves to inside the operator's network is no merchant's to read (a security review).
    for (const address of addresses) expect(attempts[0]!.error).not.toContain(address);
    expect(receiver.paths).toEqual([]);

    // The same endpoint where the network is listed: delivered.
    const allowing = await webhookGateway({ ENDPOINT_ALLOWED_NETWORKS: addresses.join(',') });
    const other = await merchantSite(allowing);
    const reached = await hooks(allowing, other, 'POST', '', { url: `http://${name}:${receiver.port}` });
    expect((await hooks(allowing, other, 'POST', `/${reached.body.id}/test`)).status).toBe(202);
    await eventually(async () => {
      await allowing.clock.advance(0);
      return receiver.paths.length === 1;
    });
    expect(receiver.paths).toEqual(['/webhook-test']);
  });
});
