/**
 * Options as data and the preview image (issue 18, docs/ordering.md#options-as-data and #the-preview-image), on both
 * doors: threads carry their colour and fonts their family; a set republished without them keeps them; a set stored
 * before threads carried colours reads with the defaults'; the order's previewImage is one token-free address on
 * REST and GraphQL, and /preview.svg draws it with every value escaped.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { insertOptionSet } from '../../src/orders/settings-repository.ts';
import { DEFAULT_OPTIONS } from '../../src/orders/sleeve-options.ts';
import { testGateway, VALID_ORDER, type TestGateway } from '../support/gateway.ts';

/** The <text> elements of an SVG: attributes and content, entities decoded (the browser suites parse it for real). */
function texts(svg: string): Array<{ attributes: string; content: string }> {
  const decode = (s: string) => s.replace(/&#(\d+);/gu, (_, c) => String.fromCharCode(Number(c)));
  return [...svg.matchAll(/<text([^>]*)>([^<]*)<\/text>/gu)].map((m) => ({ attributes: decode(m[1]!), content: decode(m[2]!) }));
}

let t: TestGateway;
beforeEach(async () => {
  t = await testGateway();
});

const DEFAULT_COLORS = DEFAULT_OPTIONS.threads.map((c) => ({ value: c.value, color: c.color }));
const UPDATE = 'mutation ($input: SleeveOptionsInput!) { updateSleeveOptions(input: $input) { version threadChoices { value color } fontChoices { value family } } }';
const staff = () => ({ token: t.adminToken });

async function restOptions() {
  const res = await t.rest('GET', '/api/sleeve-options');
  expect(res.status).toBe(200);
  return res.body;
}

describe('options as data', () => {
  it('lists each thread with its colour and each font with its family, on REST and GraphQL', async () => {
    const body = await restOptions();
    expect(body.threadChoices.map((c: any) => ({ value: c.value, color: c.color }))).toEqual(DEFAULT_COLORS);
    expect(body.threadChoices[0]).toEqual({ value: 'Gold', image: 'http://sleeve.test/images/options/thread/Gold.svg', color: '#c9a227' });
    expect(body.fontChoices.every((c: any) => typeof c.family === 'string' && c.family.length > 0)).toBe(true);
    expect(body.sizeChoices[0]).toEqual({ value: '13-inch', image: 'http://sleeve.test/images/options/size/13-inch.svg' });
    const gql = await t.gql('{ sleeveOptions { threadChoices { value color } fontChoices { value family color } sizeChoices { color family } } }');
    expect(gql.data.sleeveOptions.threadChoices).toEqual(DEFAULT_COLORS);
    expect(gql.data.sleeveOptions.fontChoices.map((c: any) => c.family)).toEqual(body.fontChoices.map((c: any) => c.family));
    expect(gql.data.sleeveOptions.sizeChoices[0]).toEqual({ color: null, family: null });
  });

  it('keeps the colours and families of choices republished without them; a new thread needs a colour', async () => {
    const before = await restOptions();
    const input = {
      sizes: [{ value: '13-inch' }],
      fonts: [{ value: 'Block' }, { value: 'Comic Sans MS' }],
      threads: [{ value: 'gold' }, { value: 'Teal', color: '#0F766E' }],
      charLimit: 12,
    };
    const set = (await t.gql(UPDATE, { input }, staff())).data.updateSleeveOptions;
    expect(set.threadChoices).toEqual([{ value: 'gold', color: '#c9a227' }, { value: 'Teal', color: '#0f766e' }]);
    expect(set.fontChoices).toEqual([
      { value: 'Block', family: before.fontChoices[0].family },
      { value: 'Comic Sans MS', family: '"Comic Sans MS", system-ui, sans-serif' },
    ]);
    // Only the limit changes, nothing else is sent: every look stays.
    const again = await t.gql(UPDATE, { input: { ...input, threads: [{ value: 'gold' }, { value: 'Teal' }], charLimit: 10 } }, staff());
    expect(again.data.updateSleeveOptions.threadChoices).toEqual(set.threadChoices);
    expect((await t.rest('GET', '/images/options/thread/Teal.svg')).body).toContain('#0f766e');

    for (const [threads, fonts, message] of [
      [[{ value: 'Plum' }], [{ value: 'Block' }], 'The thread "Plum" needs a colour, like #1f2f5c.'],
      [[{ value: 'Gold' }], [{ value: 'Block', family: 'x"/><script>' }], /CSS font-family list/u],
    ] as const) {
      const refused = await t.gql(UPDATE, { input: { ...input, threads, fonts } }, staff());
      expect(refused.errors?.[0]?.extensions).toMatchObject({ code: 'VALIDATION_FAILED' });
      expect(refused.errors?.[0]?.message).toMatch(message);
    }
    expect((await t.gql('{ sleeveOptions { version } }')).data.sleeveOptions.version).toBe(3);
  });

  it('reads a set stored before threads carried colours with the defaults’ colours, and grey for a thread they do not know', async () => {
    const { db } = t.gateway.database;
    const legacy = { sizes: [{ value: '13-inch' }], fonts: [{ value: 'Serif' }], threads: [{ value: 'Gold' }, { value: 'Navy' }, { value: 'Teal' }], charLimit: 20 };
    await (await t.gateway.services.options.current(), insertOptionSet(db, 2, JSON.stringify(legacy), Date.now()));
    t.gateway.services.options.invalidate();
    const body = await restOptions();
    expect(body.threadChoices.map((c: any) => c.color)).toEqual(['#c9a227', '#1f2f5c', '#888888']);
    expect(body.fontChoices[0].family).toBe(DEFAULT_OPTIONS.fonts.find((f) => f.value === 'Serif')!.family);
  });
});

describe('the preview image', () => {
  it('is one address without the payToken on REST create, lookup and GraphQL, and draws the order', async () => {
    const created = await t.rest('POST', '/api/orders', { ...VALID_ORDER, thread: 'Navy', stitchText: 'ADA & CO' });
    expect(created.status).toBe(201);
    const url = 'http://sleeve.test/preview.svg?size=13-inch&font=Block&thread=Navy&text=ADA%20%26%20CO';
    expect(created.body.previewImage).toBe(url);
    expect(url).not.toContain(encodeURIComponent(created.body.payToken));
    const { orderNumber, payToken } = created.body;
    expect((await t.rest('GET', `/api/orders/${orderNumber}?t=${encodeURIComponent(payToken)}`)).body.previewImage).toBe(url);
    const gql = await t.gql('query ($n: ID!, $t: String!) { order(orderNumber: $n, payToken: $t) { previewImage } }', { n: orderNumber, t: payToken });
    expect(gql.data.order.previewImage).toBe(url);

    const svg = await t.rest('GET', new URL(url).pathname + new URL(url).search);
    expect(svg.status).toBe(200);
    expect(svg.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
    const [stitched] = texts(svg.body);
    expect(stitched!.content).toBe('ADA & CO');
    expect(stitched!.attributes).toContain(' fill="#1f2f5c"');
    expect(stitched!.attributes).toContain(` font-family="${DEFAULT_OPTIONS.fonts[0]!.family}"`);
  });

  it('escapes every value, and refuses a text the order rules refuse or a missing value', async () => {
    const hostile = "Gold'\"><script>alert(1)</script>";
    const drawn = await t.rest('GET', `/preview.svg?size=${encodeURIComponent('13" <b>')}&font=Block&thread=${encodeURIComponent(hostile.slice(0, 40))}&text=A%20%26%20B`);
    expect(drawn.status).toBe(200);
    // Markup characters only as character references: no element, no attribute can be closed early.
    expect([...drawn.body.matchAll(/<([a-z]+)/gu)].map((m) => m[1])).toEqual(['svg', 'title', 'rect', 'rect', 'rect', 'text', 'text']);
    const [stitched, caption] = texts(drawn.body);
    expect(stitched!.content).toBe('A & B');
    expect(caption!.content).toContain(hostile.slice(0, 40));

    const refused = await t.rest('GET', '/preview.svg?size=13-inch&font=Block&thread=Gold&text=%3Cscript%3E');
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ ok: false, code: 'validation_failed', field: 'text' });
    const missing = await t.rest('GET', '/preview.svg?size=13-inch&font=Block&text=ADA');
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ ok: false, code: 'bad_request', field: 'thread' });
  });
});
