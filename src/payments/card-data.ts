/**
 * Card data of document 3 §2 "Tokenization shapes" and its bounds (§8): card number 10 to 19 characters, month
 * 1 to 12, year 2000 to 2125, holder name 1 to 100, bin 6 to 8, last four exactly 4. docs/platform.md#sandbox-processor: a Luhn-invalid
 * number is refused at tokenization. Every message names the field, never the value: a message may be logged.
 */
import { luhnValid } from '../kernel/card-number.ts';
import type { FieldError } from '../kernel/errors.ts';
import { fieldProblem } from '../kernel/field-problem.ts';

export interface CardData {
  cardNumber: string;
  expirationMonth: number;
  expirationYear: number;
  cardHolderName: string;
}

/** Document 3 §2 upgrade response `cardInfo`: never the whole number. */
export interface CardInfo {
  bin: string;
  lastFourDigits: string;
  cardBrand: string;
  expirationMonth: number;
  expirationYear: number;
}

export const CARD_BOUNDS = {
  numberLength: [10, 19],
  month: [1, 12],
  year: [2000, 2125],
  holderLength: [1, 100],
} as const;

const outside = (n: number, min: number, max: number): boolean => n < min || n > max;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Checks the four card fields of `body`; returns the card or every failing field. */
export function checkCardData(body: unknown): { card: CardData } | { errors: FieldError[] } {
  if (!isObject(body)) return { errors: [{ field: 'body', message: 'The request body must be a JSON object.' }] };
  const errors: FieldError[] = [];
  const { cardNumber, expirationMonth, expirationYear, cardHolderName } = body;
  const [minLen, maxLen] = CARD_BOUNDS.numberLength;
  if (typeof cardNumber !== 'string') errors.push({ field: 'cardNumber', message: fieldProblem('cardNumber', cardNumber, 'a string of digits') });
  else if (!/^[0-9]+$/u.test(cardNumber)) errors.push({ field: 'cardNumber', message: 'cardNumber must contain digits only.' });
  else if (cardNumber.length < minLen || cardNumber.length > maxLen) {
    errors.push({ field: 'cardNumber', message: `cardNumber must be ${minLen} to ${maxLen} digits long.` });
  } else if (!luhnValid(cardNumber)) errors.push({ field: 'cardNumber', message: 'cardNumber is not a valid card number (check digit).' });
  integerIn(errors, 'expirationMonth', expirationMonth, CARD_BOUNDS.month);
  integerIn(errors, 'expirationYear', expirationYear, CARD_BOUNDS.year);
  const [minHolder, maxHolder] = CARD_BOUNDS.holderLength;
  if (typeof cardHolderName !== 'string') errors.push({ field: 'cardHolderName', message: fieldProblem('cardHolderName', cardHolderName, 'a string') });
  // In characters (code points), as the OpenAPI schema's maxLength counts them, not UTF-16 units.
  else if (outside([...cardHolderName].length, minHolder, maxHolder)) {
    errors.push({ field: 'cardHolderName', message: `cardHolderName must be ${minHolder} to ${maxHolder} characters long.` });
  }
  if (errors.length > 0) return { errors };
  return {
    card: {
      cardNumber: cardNumber as string,
      expirationMonth: expirationMonth as number,
      expirationYear: expirationYear as number,
      cardHolderName: cardHolderName as string,
    },
  };
}

function integerIn(errors: FieldError[], field: string, value: unknown, [min, max]: readonly [number, number]): void {
  if (typeof value !== 'number' || !Number.isInteger(value)) errors.push({ field, message: fieldProblem(field, value, `a whole number from ${min} to ${max}`) });
  else if (value < min || value > max) errors.push({ field, message: `${field} must be from ${min} to ${max}.` });
}

/**
 * A card is good through the last day of its expiry month (UTC); one whose month has passed is refused where a
 * payment is about to be made with it (the pay page), not in the vault, which keeps expired cards for the account
 * updater to renew. The message names no date: a message may be logged.
 */
export function expiryProblem(card: Pick<CardData, 'expirationMonth' | 'expirationYear'>, now: number): FieldError | null {
  const today = new Date(now);
  const [year, month] = [today.getUTCFullYear(), today.getUTCMonth() + 1];
  if (card.expirationYear > year || (card.expirationYear === year && card.expirationMonth >= month)) return null;
  return { field: 'expirationYear', message: 'The card has expired: its expiry month has passed. Use a card that is still valid.' };
}

/** A CVC of 3 or 4 digits, as a string (document 3 leaves its shape "not shown"). */
export function cvcProblem(cvc: unknown): FieldError | null {
  if (cvc === undefined || cvc === null) return null;
  return typeof cvc === 'string' && /^[0-9]{3,4}$/u.test(cvc) ? null : { field: 'cvc', message: 'cvc must be a string of 3 or 4 digits.' };
}

/** The brand from the leading digits (the networks' published ranges). */
export function cardBrand(number: string): string {
  const two = Number(number.slice(0, 2));
  const four = Number(number.slice(0, 4));
  if (number.startsWith('4')) return 'VISA';
  if ((two >= 51 && two <= 55) || (four >= 2221 && four <= 2720)) return 'MASTERCARD';
  if (two === 34 || two === 37) return 'AMEX';
  if (number.startsWith('6011') || number.startsWith('65') || (four >= 6440 && four <= 6499)) return 'DISCOVER';
  if (four >= 3528 && four <= 3589) return 'JCB';
  if (two === 36 || two === 38 || two === 39 || (Number(number.slice(0, 3)) >= 300 && Number(number.slice(0, 3)) <= 305)) return 'DINERS';
  if (two === 62) return 'UNIONPAY';
  return 'UNKNOWN';
}

/** Bin 6 to 8 (§8): 8 digits for numbers of 16 or more, 6 otherwise, so a short number keeps digits unshown. */
export function cardInfo(card: CardData): CardInfo {
  const n = card.cardNumber;
  return {
    bin: n.slice(0, n.length >= 16 ? 8 : 6),
    lastFourDigits: n.slice(-4),
    cardBrand: cardBrand(n),
    expirationMonth: card.expirationMonth,
    expirationYear: card.expirationYear,
  };
}

/** The number with everything but the bin and the last four replaced by `*` (same length). */
export function maskedNumber(info: Pick<CardInfo, 'bin' | 'lastFourDigits'>, length: number): string {
  return info.bin + '*'.repeat(Math.max(0, length - info.bin.length - 4)) + info.lastFourDigits;
}
