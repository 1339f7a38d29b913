/**
 * Document 3 §2 "Merchant creation request" and §8 limits: a four-digit MCC, merchantId up to 50, a name up to 70 of
 * letters, digits, spaces and . _ & , ^ -, and an optional merchantAccountCreation {ip up to 45, timestamp in
 * seconds}. Names are unique per site case-insensitively (docs/platform.md#merchant-names); `merchantNameKey` is the compared form.
 */
import { DomainError, type FieldError } from '../kernel/errors.ts';
import { isRecord } from '../kernel/json-shape.ts';

export const MERCHANT_ID_MAX = 50;
export const MERCHANT_NAME_MAX = 70;
export const MERCHANT_IP_MAX = 45;
/** Ten digits of seconds reach the year 2286; a 13-digit value is milliseconds sent by mistake. */
export const MERCHANT_TIMESTAMP_MAX = 9_999_999_999;

const MCC = /^[0-9]{4}$/u;
const NAME = /^[A-Za-z0-9 ._&,^-]+$/u;
const IP = /^[0-9A-Fa-f:.]+$/u;

export interface MerchantInput {
  defaultMerchantCategoryCode: string;
  merchantId: string;
  name: string;
  merchantAccountCreation?: { ip: string | null; timestamp: number | null } | null;
}

export function merchantNameKey(name: string): string {
  return name.trim().replace(/ +/gu, ' ').toLowerCase();
}

export function parseMerchantInput(body: unknown): MerchantInput {
  if (!isRecord(body)) throw new DomainError('bad_request', 'The request body must be a JSON object.', { field: 'body' });
  const errors: FieldError[] = [];
  const fail = (field: string, message: string) => errors.push({ field, message });
  const requiredString = (field: string, max: number, pattern: RegExp | null, rule: string) => {
    const value = body[field];
    if (value === undefined || value === null) fail(field, `${field} is required.`);
    else if (typeof value !== 'string') fail(field, `${field} must be a string.`);
    else if (value.trim() === '' || value.length > max || (pattern && !pattern.test(value))) fail(field, `${field} must be ${rule}.`);
  };
  requiredString('defaultMerchantCategoryCode', 4, MCC, 'a four-digit merchant category code (ISO 18245)');
  requiredString('merchantId', MERCHANT_ID_MAX, null, `1 to ${MERCHANT_ID_MAX} characters`);
  requiredString('name', MERCHANT_NAME_MAX, NAME, `1 to ${MERCHANT_NAME_MAX} letters A-Z, digits, spaces or . _ & , ^ -`);

  const creation = body.merchantAccountCreation;
  if (creation !== undefined && creation !== null) {
    if (!isRecord(creation)) fail('merchantAccountCreation', 'merchantAccountCreation must be an object.');
    else {
      const { ip, timestamp } = creation;
      if (ip !== undefined && ip !== null && (typeof ip !== 'string' || ip.length > MERCHANT_IP_MAX || !IP.test(ip))) {
        fail('merchantAccountCreation.ip', `merchantAccountCreation.ip must be an IP address of at most ${MERCHANT_IP_MAX} characters.`);
      }
      if (timestamp !== undefined && timestamp !== null && !(Number.isSafeInteger(timestamp) && (timestamp as number) >= 0 && (timestamp as number) <= MERCHANT_TIMESTAMP_MAX)) {
        fail('merchantAccountCreation.timestamp', 'merchantAccountCreation.timestamp must be whole seconds since the Unix epoch (UTC).');
      }
    }
  }
  if (errors.length > 0) {
    throw new DomainError('bad_request', errors[0]!.message, { field: errors[0]!.field, errors });
  }
  const result: MerchantInput = {
    defaultMerchantCategoryCode: body.defaultMerchantCategoryCode as string,
    merchantId: body.merchantId as string,
    name: body.name as string,
  };
  if (isRecord(creation)) {
    result.merchantAccountCreation = { ip: (creation.ip as string | undefined) ?? null, timestamp: (creation.timestamp as number | undefined) ?? null };
  } else if (creation === null) result.merchantAccountCreation = null;
  return result;
}

/**
 * The name is taken by the caller's own merchant `existingId`: named, so a client whose creation answer was lost
 * (and with it the key) finds the merchant and replaces its key (POST /merchants/{id}/api-key).
 */
export function duplicateMerchantName(name: string, existingId: string | undefined): DomainError {
  const which = existingId ? `: ${existingId}` : '';
  const message = `A merchant named "${name}" already exists for this site${which} (names compare case-insensitively).`;
  return new DomainError('bad_request', message, { field: 'name', errors: [{ field: 'name', message }] });
}
