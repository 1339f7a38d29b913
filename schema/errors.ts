/**
 * The GraphQL face of DomainError: the ApiError object (a union member on createOrder/payOrder), the ErrorCode
 * enum of document 1's codes, and toGraphQLError, the one mapping for fields that return no union.
 */
import type { GraphQLError } from 'graphql';
import { createGraphQLError, maskError } from 'graphql-yoga';
import { DomainError, ERROR_CODES } from '../src/kernel/errors.ts';
import { DuplicateOrderError } from '../src/orders/duplicate-order.ts';
import { builder } from './builder.ts';
import { OrderRef } from './types/order.ts';

/** `validation_failed` → `VALIDATION_FAILED`: GraphQL enum style (docs/graphql.md#enum-style). */
export const graphqlCode = (code: string) => code.toUpperCase();

/** When each code comes (document 1 §7, docs/graphql.md#every-extensionscode); `retryable` says whether to retry. */
const CODE_MEANINGS: Record<(typeof ERROR_CODES)[number], string> = {
  bad_request: 'The request is not what the operation takes.',
  unauthorized: 'A staff operation without the staff token.',
  declined: 'The card or wallet was declined: choose another way to pay.',
  not_found: 'No such order, or the payToken does not open it.',
  duplicate: 'This email already has an order: `order` is it.',
  cancelled: 'The order is cancelled (`reason` says why): it cannot be paid or moved.',
  validation_failed: 'An input field is not allowed: `field` names the first one.',
  rate_limited: 'Too many requests: retry after `retryAfter` seconds.',
  internal: 'Something went wrong on our side: retry.',
  payment_unknown: 'The payment processor did not say whether it paid: retry with the same details, which charges once.',
  payment_error: 'The payment processor failed: retry.',
  unavailable: 'The service is briefly unavailable (a restart, the database): retry after `retryAfter` seconds.',
};

export const ErrorCodeEnum = builder.enumType('ErrorCode', {
  description: "Document 1's error codes.",
  values: Object.fromEntries(ERROR_CODES.map((code) => [graphqlCode(code), { value: code, description: CODE_MEANINGS[code] }])),
});

builder.objectType(DomainError, {
  name: 'ApiError',
  description: 'An expected failure: relay `error` to the user; retry only when `retryable` is true.',
  fields: (t) => ({
    code: t.field({ type: ErrorCodeEnum, description: 'What went wrong, to branch on; `error` says it to the user.', resolve: (e) => e.code }),
    error: t.string({ description: 'What went wrong and what to do, in a sentence to show the user.', resolve: (e) => e.message }),
    retryable: t.boolean({ description: 'Whether the same request may succeed later: retry only when true, after retryAfter seconds when given.', resolve: (e) => e.retryable }),
    reason: t.string({ nullable: true, description: 'Why the order cannot be paid or moved, when known: "not paid within 5 minutes" for a hold that ran out.', resolve: (e) => e.details.reason ?? null }),
    field: t.string({ nullable: true, description: 'The first failing input field.', resolve: (e) => e.details.field ?? null }),
    retryAfter: t.int({ nullable: true, description: 'Seconds to wait before retrying.', resolve: (e) => e.details.retryAfter ?? null }),
    order: t.field({
      type: OrderRef,
      nullable: true,
      description:
        'For DUPLICATE while the existing order is still held: that order, with its hold fields and a payToken. Null once it is paid or cancelled: REST then answers the code alone, and an email is no key to anyone else\'s order.',
      resolve: (e, _args, ctx) => {
        // Not `instanceof DuplicateOrderError`: plugin-errors hands the error over as a proxy whose prototype
        // chain is proxied too, so a subclass check fails there. Read the fields through the proxy instead.
        const { existing, payToken } = e as Partial<DuplicateOrderError>;
        // Document 1 §2: the existing order's fields come along only while it is held, when a token is issued.
        return e.code === 'duplicate' && existing && payToken ? ctx.services.orders.view(existing, { payToken }) : null;
      },
    }),
  }),
});

/**
 * For fields without a union: a GraphQLError whose `extensions.code` is the GraphQL-style code. `at` is the
 * error graphql-js wrapped the DomainError in, whose path and locations are kept.
 */
export function toGraphQLError(error: DomainError, at?: GraphQLError) {
  return createGraphQLError(error.message, {
    ...(at ? { nodes: at.nodes, source: at.source, positions: at.positions, path: at.path } : {}),
    extensions: {
      code: graphqlCode(error.code),
      retryable: error.retryable,
      ...(error.details.field ? { field: error.details.field } : {}),
      ...(error.details.reason ? { reason: error.details.reason } : {}),
      ...(error.details.retryAfter !== undefined
        ? { retryAfter: error.details.retryAfter, http: { status: error.status, headers: { 'retry-after': String(error.details.retryAfter) } } }
        : {}),
    },
  });
}

/**
 * yoga's maskError, extended: a DomainError anywhere becomes its GraphQL-style error; every other unexpected
 * error is masked as yoga does (its message never reaches the client), under document 1's `INTERNAL`, retryable,
 * as docs/graphql.md#every-extensionscode lists it: yoga's INTERNAL_SERVER_ERROR was in no list a client had, and
 * said nothing of a retry (a disaster-recovery review, on a full disk and a corrupt database). yoga's `unexpected`
 * stays: it logs the error, and answers 500 when nothing ran.
 */
export function maskDomainErrors(error: unknown, message: string, isDev?: boolean): Error {
  const original = (error as { originalError?: unknown })?.originalError;
  if (original instanceof DomainError) return toGraphQLError(original, error as GraphQLError);
  if (error instanceof DomainError) return toGraphQLError(error);
  const masked = maskError(error, message, isDev) as GraphQLError;
  if (masked.extensions?.unexpected !== true) return masked;
  return createGraphQLError(masked.message, {
    nodes: masked.nodes,
    source: masked.source,
    positions: masked.positions,
    path: masked.path,
    extensions: { ...masked.extensions, code: graphqlCode('internal'), retryable: true },
  });
}
