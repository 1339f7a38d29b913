/**
 * yoga's logger, over the gateway's (docs/operations.md#request-logs). yoga logs an error when its masking replaced
 * it: an unexpected one (masked as "Unexpected error."), and every DomainError that became its GraphQL form.
 *
 * An error is logged as its fields — name, message, stack and the error it wraps (src/kernel/logger.ts) — never as
 * `String(error)`: a GraphQLError prints the document's source around its location, and a document may hold a
 * payToken inline (`holdCountdown(orderNumber: "1001", payToken: "…")`), which reached the log that way. A
 * DomainError is an expected answer (NOT_FOUND, RATE_LIMITED…), already in the response: `debug`, not `error`.
 * Anything else yoga passes is written only when it is a string (its own fixed messages); an object might be a
 * request's parameters.
 */
import type { YogaLogger } from 'graphql-yoga';
import { DomainError } from '../src/kernel/errors.ts';
import type { Logger } from '../src/kernel/logger.ts';

type Level = 'debug' | 'info' | 'warn' | 'error';

function expected(error: Error): boolean {
  return error instanceof DomainError || (error as { originalError?: unknown }).originalError instanceof DomainError;
}

function write(logger: Logger, level: Level, args: unknown[]): void {
  const fields: Record<string, unknown> = {};
  const words: string[] = [];
  for (const arg of args) {
    if (arg instanceof Error) {
      fields.error = arg;
      if (level === 'error' && expected(arg)) level = 'debug';
    } else {
      words.push(typeof arg === 'string' ? arg : `[${typeof arg}]`);
    }
  }
  if (words.length > 0) fields.detail = words.join(' ');
  logger[level]('graphql', fields);
}

export function yogaLogging(logger: Logger): YogaLogger {
  return {
    debug: (...args: unknown[]) => write(logger, 'debug', args),
    info: (...args: unknown[]) => write(logger, 'info', args),
    warn: (...args: unknown[]) => write(logger, 'warn', args),
    error: (...args: unknown[]) => write(logger, 'error', args),
  };
}
