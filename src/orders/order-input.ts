/**
 * OrderInput and PayInput checks of document 1 §2, split as docs/ordering.md#400-or-422 says:
 * 400 `bad_request` when the body is not an object, a field is missing or of the wrong JSON type, or `method`
 * is unknown; 422 `validation_failed` when everything is present and typed but breaks a rule.
 * Both doors (REST and GraphQL) call these, so the rules live once.
 */
import { DomainError } from '../kernel/errors.ts';
import { emailProblem } from '../kernel/email.ts';
import { nameProblem } from './person-name.ts';
import { PAY_METHODS, type PayMethod } from './order.ts';
import type { SleeveOptionSet } from './sleeve-options.ts';

export interface OrderInput {
  email: string;
  name: string;
  size: string;
  font: string;
  thread: string;
  stitchText: string;
}

export interface PayInput {
  t: string;
  method: PayMethod;
  token?: string;
}

/** Document 1 §2: letters, digits, spaces, `.`, `-`, `&`; starts with a letter or digit. */
export const STITCH_TEXT_PATTERN = /^[A-Za-z0-9][A-Za-z0-9 .\-&]*$/u;

const ORDER_FIELDS = ['email', 'name', 'size', 'font', 'thread', 'stitchText'] as const;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function badRequest(field: string | undefined, message: string): DomainError {
  return new DomainError('bad_request', message, field === undefined ? {} : { field });
}

function invalid(field: string, message: string): DomainError {
  return new DomainError('validation_failed', message, { field });
}

/** The 400 layer: shape and JSON types. Unknown extra fields are ignored. */
export function parseOrderInput(body: unknown): OrderInput {
  if (!isObject(body)) throw badRequest(undefined, 'The request body must be a JSON object.');
  for (const field of ORDER_FIELDS) {
    const value = body[field];
    if (value === undefined || value === null) throw badRequest(field, `${field} is required.`);
    if (typeof value !== 'string') throw badRequest(field, `${field} must be a string.`);
  }
  const pick = (f: (typeof ORDER_FIELDS)[number]) => body[f] as string;
  return {
    email: pick('email'),
    name: pick('name'),
    size: pick('size'),
    font: pick('font'),
    thread: pick('thread'),
    stitchText: pick('stitchText'),
  };
}

/** The 422 layer: every rule of OrderInput against the options offered now. */
export function checkOrderInput(input: OrderInput, options: SleeveOptionSet): void {
  const email = emailProblem(input.email);
  if (email) throw invalid('email', email);
  const name = nameProblem(input.name);
  if (name) throw invalid('name', name);
  for (const [field, list] of [
    ['size', options.sizes],
    ['font', options.fonts],
    ['thread', options.threads],
  ] as const) {
    const value = input[field];
    if (!list.some((c) => c.value === value)) {
      const offered = list.map((c) => c.value).join(', ');
      throw invalid(field, `${field} "${value}" is not offered now. Choose one of: ${offered}.`);
    }
  }
  const text = input.stitchText;
  if (!STITCH_TEXT_PATTERN.test(text)) {
    throw invalid(
      'stitchText',
      'stitchText may use only the letters A to Z without accents, digits, spaces, ".", "-" and "&", and must start with a letter or digit.',
    );
  }
  if (text.length > options.charLimit) {
    throw invalid('stitchText', `stitchText is ${text.length} characters; the limit is ${options.charLimit}.`);
  }
}

/** PayInput: all of its rules are of the 400 kind (docs/ordering.md#400-or-422). */
export function parsePayInput(body: unknown): PayInput {
  if (!isObject(body)) throw badRequest(undefined, 'The request body must be a JSON object.');
  const { t, method, token } = body;
  if (t === undefined || t === null) throw badRequest('t', 't (the payToken) is required.');
  if (typeof t !== 'string') throw badRequest('t', 't must be a string.');
  if (method === undefined || method === null) throw badRequest('method', 'method is required.');
  if (typeof method !== 'string' || !(PAY_METHODS as readonly string[]).includes(method)) {
    throw badRequest('method', `method must be one of: ${PAY_METHODS.join(', ')}.`);
  }
  if (token !== undefined && token !== null && typeof token !== 'string') {
    throw badRequest('token', 'token must be a string.');
  }
  const hasToken = typeof token === 'string' && token.length > 0;
  if (method === 'vendor_card' && token !== undefined && token !== null) {
    throw badRequest('token', 'Send no token with vendor_card: the demo card needs none.');
  }
  if (method !== 'vendor_card' && !hasToken) {
    throw badRequest('token', `method ${method} needs the token that the payUrl page creates.`);
  }
  return hasToken ? { t, method: method as PayMethod, token: token as string } : { t, method: method as PayMethod };
}
