/**
 * The `/api/payments` request of document 3 §2 "Payment creation request", checked as docs/platform.md#payments says: amount in
 * minor units (cents), errors as `[{ field, message }]` (every failing field, 400). The document leaves required
 * fields "not shown": orderId, amount, currency and paymentMethod are required here; the rest is checked for type
 * when present. `paymentMethod` is `card` with `card {number, expirationMonth, expirationYear, holderName, cvc}`
 * or with a vault `token`, or `wallet` with a sandbox wallet confirmation `token`.
 */
import { checkCardData, cvcProblem, type CardData } from './card-data.ts';
import type { FieldError } from '../kernel/errors.ts';
import { fieldProblem } from '../kernel/field-problem.ts';
import { arr, checkShape, obj } from '../kernel/json-shape.ts';
import { sandboxDecisionOf, type VendorDecision } from '../kernel/vendor-decisions.ts';

export type PaymentSource = { type: 'card'; card: CardData; cvc: string | null } | { type: 'card' | 'wallet'; token: string };

export interface PaymentRequest {
  orderId: string;
  amount: number;
  currency: string;
  customerEmail: string | null;
  source: PaymentSource;
}

/** Sandbox decisions (docs/platform.md#sandbox-addresses); anything else is approved. Only DECLINE stops the charge. */
export type PaymentDecision = VendorDecision;

export function paymentDecision(email: string | null): PaymentDecision {
  return (email && sandboxDecisionOf(email)?.decision) || 'APPROVE';
}

/**
 * The currencies a payment may be in: ISO 4217's current codes as the runtime's ICU knows them (162 on Node 20).
 * Any three letters passed before, and a typo such as USS was stored as a currency.
 */
const CURRENCIES: ReadonlySet<string> = new Set(Intl.supportedValuesOf('currency'));

/** An amount or a currency code sent as the wrong number is safe to repeat back, and helps. */
const REPEAT = { repeatNumbers: true };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Optional members and the shape each must have when present, nested members too (document 3 §2 table; a member
 * the table gives no type, such as an address's country, is kept as sent). Only the top level was checked: a cart
 * item's price sent as "19.99" was charged, 201, and the client never heard of its mistake.
 */
const OPTIONAL_SHAPE = obj({
  captureMethod: 'string',
  channel: 'string',
  connectionInformation: obj({ customerIP: 'string' }),
  browserInfo: obj({ userAgent: 'string' }),
  cartItems: arr(obj({ name: 'string', price: 'integer', quantity: 'integer', type: 'string' })),
  shipping: obj({ address: obj({}), deliveryMethod: 'string', deliveryType: 'string', savedData: 'object' }),
  billing: obj({ address: obj({}) }),
  customer: obj({ email: 'string', firstName: 'string', lastName: 'string' }),
  accountInfo: obj({ customerEngagement: obj({ wishlist: 'object', reviewsWritten: 'object', newsletters: 'object' }) }),
  tax: 'object',
  discounts: arr(obj({ code: 'string', amount: 'integer' })),
});

export function checkPaymentRequest(body: unknown): { request: PaymentRequest } | { errors: FieldError[] } {
  if (!isObject(body)) return { errors: [{ field: 'body', message: 'The request body must be a JSON object.' }] };
  const errors: FieldError[] = [];
  const { orderId, amount, currency, customer, paymentMethod } = body;
  if (typeof orderId !== 'string' || orderId.length < 1 || orderId.length > 200) {
    errors.push({ field: 'orderId', message: fieldProblem('orderId', orderId, 'a string of 1 to 200 characters') });
  }
  if (typeof amount !== 'number' || !Number.isSafeInteger(amount) || amount < 1) {
    errors.push({ field: 'amount', message: fieldProblem('amount', amount, "a positive whole number of the currency's minor units (cents for USD, yen for JPY)", REPEAT) });
  }
  if (typeof currency !== 'string' || !/^[A-Za-z]{3}$/u.test(currency)) {
    errors.push({ field: 'currency', message: fieldProblem('currency', currency, 'a three-letter currency code such as USD', REPEAT) });
  } else if (!CURRENCIES.has(currency.toUpperCase())) {
    // Three letters are safe to repeat back.
    errors.push({ field: 'currency', message: `currency must be an ISO 4217 currency code such as USD or EUR; ${currency.toUpperCase()} is not one.` });
  }
  checkShape(body, OPTIONAL_SHAPE, '', errors);
  const email = isObject(customer) && typeof customer.email === 'string' ? customer.email : null;
  const source = checkPaymentMethod(paymentMethod, errors);
  if (errors.length > 0 || !source) return { errors };
  return {
    request: { orderId: orderId as string, amount: amount as number, currency: (currency as string).toUpperCase(), customerEmail: email, source },
  };
}

function checkPaymentMethod(method: unknown, errors: FieldError[]): PaymentSource | null {
  if (!isObject(method)) {
    errors.push({ field: 'paymentMethod', message: fieldProblem('paymentMethod', method, 'an object with type "card" or "wallet"') });
    return null;
  }
  const { type, card, token } = method;
  if (type !== 'card' && type !== 'wallet') {
    errors.push({ field: 'paymentMethod.type', message: 'paymentMethod.type must be "card" or "wallet".' });
    return null;
  }
  if (token !== undefined && card !== undefined) {
    // Charging one of them would be a guess about which card the client meant.
    errors.push({ field: 'paymentMethod', message: 'paymentMethod holds either card or token, not both.' });
    return null;
  }
  if (typeof token === 'string' && token.length > 0 && token.length <= 200) return { type, token };
  if (type === 'wallet') {
    errors.push({ field: 'paymentMethod.token', message: 'paymentMethod.token (a wallet confirmation token) is required for wallet.' });
    return null;
  }
  if (!isObject(card)) {
    errors.push({ field: 'paymentMethod.card', message: 'paymentMethod.card (or paymentMethod.token, a vault token) is required for card.' });
    return null;
  }
  // Document 3 names the payment card's members number/holderName; the vault's are cardNumber/cardHolderName.
  const checked = checkCardData({ ...card, cardNumber: card.number, cardHolderName: card.holderName });
  const named = (field: string) => `paymentMethod.card.${field === 'cardNumber' ? 'number' : field === 'cardHolderName' ? 'holderName' : field}`;
  const cvc = cvcProblem(card.cvc);
  if ('errors' in checked) errors.push(...checked.errors.map((e) => ({ field: named(e.field), message: e.message.replace(e.field, named(e.field)) })));
  if (cvc) errors.push({ field: 'paymentMethod.card.cvc', message: 'paymentMethod.card.cvc must be a string of 3 or 4 digits.' });
  if ('errors' in checked || cvc) return null;
  return { type: 'card', card: checked.card, cvc: typeof card.cvc === 'string' ? card.cvc : null };
}
