import { describe, expect, it } from 'vitest';
import { testGateway, VALID_ORDER } from '../support/gateway.ts';

describe('the page at payUrl', () => {
  it('is served as HTML at the payUrl an order returns, kept out of caches and referrers', async () => {
    const { rest } = await testGateway();
    const created = await rest('POST', '/api/orders', VALID_ORDER);
    const path = new URL(created.body.payUrl).pathname + new URL(created.body.payUrl).search;
    expect(path).toBe(`/pay/1001?t=${encodeURIComponent(created.body.payToken)}`);

    const page = await rest('GET', path);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.body).toContain('<html lang="en">');
    // The page holds no secret: the token stays in the address, never in the HTML.
    expect(page.body).not.toContain(created.body.payToken);
    // It loads nothing from another host.
    expect(page.body).not.toMatch(/(src|href)="https?:/u);
  });

  it('does not let the order number inject markup', async () => {
    const { rest } = await testGateway();
    const page = await rest('GET', '/pay/%3Cscript%3Ealert(1)%3C%2Fscript%3E');
    expect(page.status).toBe(404);
    expect(page.body).not.toContain('<script>alert(1)</script>');
  });
});
