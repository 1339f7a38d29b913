/**
 * The tools' published input schemas (mcp/tool-schemas.ts) and the rules that really decide (src/orders/order-input.ts)
 * agree: at every edge the schema states, an input the schema refuses is refused by the rules too, and one the rules
 * accept passes the schema. The rules may refuse more (an address that is no address, a name of one word, a choice
 * not offered now, a text over today's charLimit): JSON Schema cannot say those, the descriptions do.
 */
import { describe, expect, it } from 'vitest';
import { EMAIL_MAX_LENGTH } from '../../src/kernel/email.ts';
import { DomainError } from '../../src/kernel/errors.ts';
import { checkOrderInput, parseOrderInput, parsePayInput } from '../../src/orders/order-input.ts';
import { NAME_MAX_LENGTH } from '../../src/orders/person-name.ts';
import { orderConfirmationText } from '../../mcp/agent-rules.ts';
import { ORDER_INPUT, PAY_INPUT } from '../../mcp/tool-schemas.ts';
import { VALID_ORDER, testGateway } from '../support/gateway.ts';

const long = (n: number, base = 'a') => base.repeat(n);
const email = (length: number) => `${long(length - '@example.com'.length)}@example.com`;

const ORDER_EDGES: Array<[string, Record<string, unknown>]> = [
  ['valid', {}],
  ['email at its limit', { email: email(EMAIL_MAX_LENGTH) }],
  ['email one over', { email: email(EMAIL_MAX_LENGTH + 1) }],
  ['email empty', { email: '' }],
  ['email a number', { email: 42 }],
  ['name at its limit', { name: `Ada ${long(NAME_MAX_LENGTH - 4, 'b')}` }],
  ['name one over', { name: `Ada ${long(NAME_MAX_LENGTH - 3, 'b')}` }],
  ['name missing', { name: undefined }],
  ['stitchText starting with a space', { stitchText: ' ADA' }],
  ['stitchText starting with a hyphen', { stitchText: '-ADA' }],
  ['stitchText with & . -', { stitchText: 'A&B. C-D' }],
  ['stitchText with a letter outside ASCII', { stitchText: 'ÅDA' }],
  ['stitchText empty', { stitchText: '' }],
  ['size empty', { size: '' }],
];

describe('the MCP tools input schemas and the order rules', () => {
  it.each(ORDER_EDGES)('create_order, %s: refused by the rules whenever the schema refuses it', async (_label, change) => {
    const { gateway } = await testGateway();
    const options = await gateway.services.options.current();
    const input = { ...VALID_ORDER, ...change };
    const schemaAccepts = ORDER_INPUT.safeParse(input).success;
    let rulesAccept = true;
    try {
      checkOrderInput(parseOrderInput(input), options);
    } catch (error) {
      expect(error).toBeInstanceOf(DomainError);
      rulesAccept = false;
    }
    if (!schemaAccepts) expect(rulesAccept).toBe(false);
    if (rulesAccept) expect(schemaAccepts).toBe(true);
  });

  it.each([
    ['vendor_card', { method: 'vendor_card' }],
    ['an unknown method', { method: 'cash' }],
    ['card with a token', { method: 'card', token: 'tok' }],
    ['a method that is a number', { method: 1 }],
  ] as Array<[string, Record<string, unknown>]>)('pay_order, %s: the schema and the rules agree on the method', (_label, change) => {
    const args: Record<string, unknown> = { orderNumber: '1001', payToken: 'tok', ...change };
    let rulesAccept = true;
    try {
      parsePayInput({ t: args.payToken, method: args.method, token: args.token });
    } catch {
      rulesAccept = false;
    }
    expect(PAY_INPUT.safeParse(args).success).toBe(rulesAccept);
  });
});

describe("create_order's question", () => {
  it('counts the stitch text in words that agree: "1 character", "3 characters"', () => {
    expect(orderConfirmationText({ ...VALID_ORDER, stitchText: 'X' }, 300)).toContain('"X" (1 character), spelled: capital X.');
    expect(orderConfirmationText({ ...VALID_ORDER, stitchText: 'ADA' }, 300)).toContain('"ADA" (3 characters)');
  });
});
