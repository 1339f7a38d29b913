/**
 * The one error type of the domain core. Services throw a DomainError for every expected failure;
 * each front door maps it once (rest-compat/errors.ts, schema/errors.ts).
 *
 * The registry below is document 1 §7 plus docs/ordering.md#retryable-codes (`retryable` per code, `unauthorized` is 401).
 */
export const ERROR_REGISTRY = {
  bad_request: { status: 400, retryable: false },
  unauthorized: { status: 401, retryable: false },
  declined: { status: 402, retryable: false },
  not_found: { status: 404, retryable: false },
  duplicate: { status: 409, retryable: false },
  cancelled: { status: 409, retryable: false },
  validation_failed: { status: 422, retryable: false },
  rate_limited: { status: 429, retryable: true },
  internal: { status: 500, retryable: true },
  payment_unknown: { status: 502, retryable: true },
  payment_error: { status: 502, retryable: true },
  unavailable: { status: 503, retryable: true },
} as const satisfies Record<string, { status: number; retryable: boolean }>;

export type ErrorCode = keyof typeof ERROR_REGISTRY;
export const ERROR_CODES = Object.keys(ERROR_REGISTRY) as ErrorCode[];

export interface DomainErrorDetails {
  /** The first failing input field (400 and 422, docs/ordering.md#400-or-422). */
  field?: string;
  /** Document 1: `not paid within 5 minutes` on a hold that ran out. */
  reason?: string;
  /** Seconds, sent as `Retry-After` on 429 and 503. */
  retryAfter?: number;
  /** For `duplicate`: the existing order's number, so a door can show its hold fields. */
  orderNumber?: string;
  /** Every failing field of a platform request (document 3 / docs/platform.md#error-bodies). */
  errors?: FieldError[];
}

export interface FieldError {
  field: string;
  message: string;
}

export class DomainError extends Error {
  override readonly name = 'DomainError';
  readonly code: ErrorCode;
  readonly details: DomainErrorDetails;

  constructor(code: ErrorCode, message: string, details: DomainErrorDetails = {}) {
    super(message);
    this.code = code;
    this.details = details;
  }

  get status(): number {
    return ERROR_REGISTRY[this.code].status;
  }

  get retryable(): boolean {
    return ERROR_REGISTRY[this.code].retryable;
  }
}
