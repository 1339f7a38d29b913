/** Rules for seller item listings (document 3 §2 "Seller item listing request"). */
import type { Rule } from './types.ts';

export const NEW_SELLER_MS = 60 * 60_000;
/** In the item's own price unit (document 3 does not fix one). */
export const HIGH_VALUE_LISTING = 1000;

export const newSellerHighValue: Rule = {
  id: 'new-seller-high-value',
  description: `A seller account created less than ${NEW_SELLER_MS / 60_000} minutes before listing an item worth ${HIGH_VALUE_LISTING} or more.`,
  reasonCode: 'NEW_SELLER_HIGH_VALUE_LISTING',
  outcome: 'VERIFICATION_REQUIRED',
  recommendations: ['ID_VERIFICATION'],
  evaluate({ facts }) {
    if (facts.sellerCreatedAt === null || facts.highestListingValue < HIGH_VALUE_LISTING) return null;
    const ageMinutes = Math.floor((facts.eventTime - facts.sellerCreatedAt) / 60_000);
    return facts.eventTime - facts.sellerCreatedAt < NEW_SELLER_MS
      ? `Seller account ${Math.max(0, ageMinutes)} minute(s) old lists an item worth ${facts.highestListingValue}.`
      : null;
  },
};

export const cryptoPayout: Rule = {
  id: 'crypto-payout',
  description: 'A beneficiary of a listed item is paid out to a crypto wallet.',
  reasonCode: 'CRYPTO_WALLET_PAYOUT',
  outcome: 'VERIFICATION_REQUIRED',
  recommendations: ['ID_VERIFICATION'],
  evaluate({ facts }) {
    return facts.cryptoPayout ? 'Payout to a crypto wallet.' : null;
  },
};
