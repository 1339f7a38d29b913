/**
 * 3DS recommendation enrollment (document 3 §2 "3DS recommendation enrollment request"; docs/platform.md#3ds-enrollment
 * PENDING → COMPLETED | FAILED with a reason). The request is type-checked when it arrives; whether it makes sense
 * as a whole is decided when the enrollment completes, and an inconsistent one fails with a reason.
 */
import { DomainError, type FieldError } from '../kernel/errors.ts';
import { fieldProblem } from '../kernel/field-problem.ts';
import { arr, checkShape, isRecord, obj } from '../kernel/json-shape.ts';

export type EnrollmentStatus = 'PENDING' | 'COMPLETED' | 'FAILED';

/** How long after the request the scheduler completes it (the provider's processing time, simulated). */
export const ENROLLMENT_DELAY_MS = 5_000;

export interface Offerings {
  jp_regulation?: { acquirer_settings?: Array<{ acquirer: string; scenario: string }>; enabled?: boolean } | null;
  policy_3ds?: boolean | null;
  psd2?: boolean | null;
  risk_3ds?: boolean | null;
}

const OFFERINGS = obj({
  jp_regulation: obj({ acquirer_settings: arr(obj({ acquirer: 'string', scenario: 'string' })), enabled: 'boolean' }),
  policy_3ds: 'boolean',
  psd2: 'boolean',
  risk_3ds: 'boolean',
});

export function parseEnrollmentRequest(body: unknown): Offerings {
  if (!isRecord(body)) throw new DomainError('bad_request', 'The request body must be a JSON object.', { field: 'body' });
  const errors: FieldError[] = [];
  if (!isRecord(body.offerings)) errors.push({ field: 'offerings', message: fieldProblem('offerings', body.offerings, 'an object') });
  else checkShape(body.offerings, OFFERINGS, 'offerings', errors);
  if (errors.length > 0) throw new DomainError('bad_request', errors[0]!.message, { field: errors[0]!.field, errors });
  return body.offerings as Offerings;
}

/** The completed state of a request: COMPLETED, or FAILED with the reason the merchant can act on. */
export function enrollmentOutcome(offerings: Offerings): { status: 'COMPLETED' } | { status: 'FAILED'; reason: string } {
  const jp = offerings.jp_regulation;
  if (jp?.enabled === true && (jp.acquirer_settings ?? []).length === 0) {
    return { status: 'FAILED', reason: 'jp_regulation is enabled without acquirer_settings: name at least one acquirer and scenario.' };
  }
  const settings = jp?.acquirer_settings ?? [];
  const blank = settings.findIndex((s) => s.acquirer.trim() === '' || s.scenario.trim() === '');
  if (blank >= 0) return { status: 'FAILED', reason: `jp_regulation.acquirer_settings[${blank}] needs both an acquirer and a scenario.` };
  const enabled = jp?.enabled === true || offerings.policy_3ds === true || offerings.psd2 === true || offerings.risk_3ds === true;
  if (!enabled) return { status: 'FAILED', reason: 'No offering is enabled: enable at least one of jp_regulation, policy_3ds, psd2, risk_3ds.' };
  return { status: 'COMPLETED' };
}
