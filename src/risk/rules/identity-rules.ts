/** Rules about who the account says it is: its contact details and its addresses. */
import type { Rule } from './types.ts';

/** Domains of throwaway mailbox services (a short, fixed list: the engine must give one answer for one input). */
export const DISPOSABLE_EMAIL_DOMAINS: readonly string[] = [
  '10minutemail.com',
  'dispostable.com',
  'getnada.com',
  'guerrillamail.com',
  'mailinator.com',
  'sharklasers.com',
  'temp-mail.org',
  'throwawaymail.com',
  'trashmail.com',
  'yopmail.com',
];

export const unverifiedContact: Rule = {
  id: 'unverified-contact',
  description: 'The request names emails or phones, and not one of them is verified.',
  reasonCode: 'UNVERIFIED_EMAIL_AND_PHONE',
  outcome: 'VERIFICATION_REQUIRED',
  recommendations: ['EMAIL_VERIFICATION', 'SMS_VERIFICATION'],
  evaluate({ facts }) {
    const checked = [...facts.emails, ...facts.phones].filter((c) => c.verified !== null);
    if (checked.length === 0 || checked.some((c) => c.verified)) return null;
    return `${checked.length} email(s) and phone(s) given, none verified.`;
  },
};

export const disposableEmail: Rule = {
  id: 'disposable-email',
  description: 'An email of the request is at a disposable mailbox domain.',
  reasonCode: 'DISPOSABLE_EMAIL_DOMAIN',
  outcome: 'DECLINE',
  recommendations: [],
  evaluate({ facts }) {
    const hit = facts.emails.map((e) => disposableDomainOf(e.email)).find((domain) => domain !== null);
    return hit ? `${hit} is a disposable mailbox domain.` : null;
  },
};

export const countryMismatch: Rule = {
  id: 'country-mismatch',
  description: 'The addresses of the request are in more than one country.',
  reasonCode: 'COUNTRY_MISMATCH',
  outcome: 'VERIFICATION_REQUIRED',
  recommendations: ['ID_VERIFICATION'],
  evaluate({ facts }) {
    return facts.countries.length > 1 ? `Addresses in ${facts.countries.join(', ')}.` : null;
  },
};

/**
 * The disposable service an address (trimmed by facts.ts) is at, or null. Mail is delivered alike to
 * `mailinator.com.` (a fully qualified name) and to a service's subdomains, so neither slips past.
 */
function disposableDomainOf(email: string): string | null {
  const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase().replace(/\.+$/u, '');
  return DISPOSABLE_EMAIL_DOMAINS.find((listed) => domain === listed || domain.endsWith(`.${listed}`)) ?? null;
}
