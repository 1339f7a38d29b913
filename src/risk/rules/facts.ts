/** Reduces a checked request body (account-requests.ts) to the facts the rules read. Pure; tolerant of absent parts. */
import type { AccountRequest } from '../account-requests.ts';
import { isRecord } from '../../kernel/json-shape.ts';
import type { RequestFacts } from './types.ts';

type Json = Record<string, unknown>;

const record = (value: unknown): Json => (isRecord(value) ? value : {});
const list = (value: unknown): Json[] => (Array.isArray(value) ? value.filter(isRecord) : []);
const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null);
const flag = (value: unknown): boolean | null => (typeof value === 'boolean' ? value : null);

export function requestFacts(request: AccountRequest): RequestFacts {
  const body = request.body;
  const accountData = record(body.accountData);
  const items = list(body.listedItems);
  const payment = record(body.newPaymentMethods);
  const newEmail = record(body.newEmail);
  const newPhone = record(body.newPhone);

  const emails = [
    ...list(accountData.emailsInAccount).map((e) => ({ email: text(e.email), verified: flag(record(e.emailVerification).verified) })),
    { email: text(newEmail.email), verified: flag(record(newEmail.emailVerification).verified) },
    { email: text(record(body.accountOwner).email), verified: null },
  ].filter((e): e is { email: string; verified: boolean | null } => e.email !== null);
  const phones = [
    ...list(accountData.phonesInAccount).map((p) => ({ phone: text(p.phone), verified: flag(record(p.smsVerified).verified) })),
    { phone: text(newPhone.phone), verified: flag(record(newPhone.smsVerified).verified) },
  ].filter((p): p is { phone: string; verified: boolean | null } => p.phone !== null);

  const beneficiaries = items.flatMap((item) => list(item.beneficiaries));
  const addresses = [
    ...list(accountData.addressesInAccount),
    record(body.newAddress),
    record(record(payment.billingDetails).address),
    ...beneficiaries.map((b) => record(b.address)),
  ];
  const countries = [...new Set(addresses.map((a) => text(a.country)?.toUpperCase()).filter((c): c is string => !!c))].sort();

  const sellerTimes = items
    .map((item) => sellerCreationTime(record(record(item.seller).sellerDetails).sellerAccountCreationDate))
    .filter((t): t is number => t !== null);

  return {
    kind: request.kind,
    accountId: request.accountId,
    eventTime: request.eventTime,
    customerIp: text(record(body.connectionInformation).customerIP),
    emails,
    phones,
    newPaymentMethod: Object.keys(payment).length > 0,
    newAddress: Object.keys(record(body.newAddress)).length > 0,
    countries,
    cryptoPayout: beneficiaries.some((b) => isRecord(b.cryptoWallet)),
    sellerCreatedAt: sellerTimes.length > 0 ? Math.max(...sellerTimes) : null,
    highestListingValue: Math.max(0, ...items.map(listingValue)),
  };
}

function listingValue(item: Json): number {
  const data = record(item.basicItemData);
  const price = Number(data.price ?? 0);
  const quantity = Number.isSafeInteger(data.quantity) ? (data.quantity as number) : 1;
  return Number.isFinite(price) ? price * Math.max(1, quantity) : 0;
}

/** Document 3 gives no type for sellerAccountCreationDate: epoch seconds, epoch ms (13 digits) or an ISO date. */
function sellerCreationTime(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value)) return value >= 1e12 ? value : value * 1000;
  if (typeof value === 'string' && value.trim() !== '') {
    const parsed = Date.parse(value);
    return Number.isNaN(parsed) ? null : parsed;
  }
  return null;
}
