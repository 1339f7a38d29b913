/**
 * The bodies of the tokenization operations (document 3 §2 "Tokenization shapes"), checked into typed inputs.
 * Failures are 400 with the tokenization body `{ message }` (docs/platform.md#error-bodies); `errors` carries every failing field.
 */
import { checkCardData, cvcProblem, type CardData } from './card-data.ts';
import { DomainError, type FieldError } from '../kernel/errors.ts';
import { fieldProblem } from '../kernel/field-problem.ts';

export interface TokenizeInput {
  card: CardData;
  cvc: string | null;
  aliases: Array<[string, string]>;
  extra: Record<string, string> | null;
  customerId: Record<string, unknown> | null;
}

export type TokenReference = { token: string } | { alias: { key: string; value: string } };

export interface UpgradeInput {
  ref: TokenReference;
  networkToken: { provision: boolean; async: boolean } | null;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function refuse(errors: FieldError[]): never {
  throw new DomainError('bad_request', errors.map((e) => e.message).join(' '), { field: errors[0]?.field ?? 'body', errors });
}

export function parseCard(body: unknown): CardData {
  const checked = checkCardData(body);
  if ('errors' in checked) refuse(checked.errors);
  return checked.card;
}

function stringMap(errors: FieldError[], field: string, value: unknown): Record<string, string> | null {
  if (value === undefined || value === null) return null;
  const ok = isObject(value) && Object.entries(value).every(([k, v]) => k.length >= 1 && k.length <= 200 && typeof v === 'string' && v.length >= 1 && v.length <= 200);
  if (!ok) errors.push({ field, message: `${field} must be an object of strings (keys and values of 1 to 200 characters).` });
  return ok ? (value as Record<string, string>) : null;
}

export function parseTokenize(body: unknown): TokenizeInput {
  const card = checkCardData(body);
  const errors = 'errors' in card ? [...card.errors] : [];
  const fields = isObject(body) ? body : {};
  const cvc = cvcProblem(fields.cvc);
  if (cvc) errors.push(cvc);
  const aliases = stringMap(errors, 'tokenAliases', fields.tokenAliases);
  const extra = stringMap(errors, 'extra', fields.extra);
  if (fields.customerId !== undefined && fields.customerId !== null && !isObject(fields.customerId)) {
    errors.push({ field: 'customerId', message: 'customerId must be an object.' });
  }
  if (errors.length > 0 || 'errors' in card) refuse(errors);
  return {
    card: card.card,
    cvc: typeof fields.cvc === 'string' ? fields.cvc : null,
    aliases: Object.entries(aliases ?? {}),
    extra,
    customerId: isObject(fields.customerId) ? fields.customerId : null,
  };
}

export function parseTokenReference(body: unknown): TokenReference {
  if (!isObject(body)) refuse([{ field: 'body', message: 'The request body must be a JSON object.' }]);
  const { token, tokenAlias } = body;
  if (typeof token === 'string' && token.length > 0) return { token };
  if (isObject(tokenAlias) && typeof tokenAlias.key === 'string' && typeof tokenAlias.value === 'string') {
    return { alias: { key: tokenAlias.key, value: tokenAlias.value } };
  }
  refuse([{ field: 'token', message: 'Send token, or tokenAlias with key and value (strings).' }]);
}

export function parseUpgrade(body: unknown): UpgradeInput {
  const ref = parseTokenReference(body);
  const networkToken = (body as Record<string, unknown>).networkToken;
  if (networkToken === undefined || networkToken === null) return { ref, networkToken: null };
  if (!isObject(networkToken) || typeof networkToken.provision !== 'boolean') {
    refuse([{ field: 'networkToken.provision', message: isObject(networkToken) ? fieldProblem('networkToken.provision', networkToken.provision, 'true or false') : fieldProblem('networkToken', networkToken, 'an object with provision: true or false') }]);
  }
  const async = networkToken.async ?? false;
  if (typeof async !== 'boolean') refuse([{ field: 'networkToken.async', message: 'networkToken.async must be a boolean.' }]);
  return { ref, networkToken: { provision: networkToken.provision, async } };
}
