/** The option set, valid input and checks the pure-rule suites of document 1 §2 share (order-input, person-rules). */
import { expect } from 'vitest';
import { DomainError } from '../../src/kernel/errors.ts';
import { checkOrderInput, type OrderInput } from '../../src/orders/order-input.ts';
import { DEFAULT_OPTIONS, type SleeveOptionSet } from '../../src/orders/sleeve-options.ts';

export const OPTIONS: SleeveOptionSet = { version: 1, ...DEFAULT_OPTIONS };

export const VALID: OrderInput = {
  email: 'ada@example.com',
  name: 'Ada Lovelace',
  size: OPTIONS.sizes[0]!.value,
  font: OPTIONS.fonts[0]!.value,
  thread: OPTIONS.threads[0]!.value,
  stitchText: 'ADA 1815',
};

/** Runs `fn` and returns the DomainError it threw (fails the test when it throws nothing or something else). */
export function domainErrorOf(fn: () => unknown): DomainError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return error as DomainError;
  }
  throw new Error('expected a DomainError, but nothing was thrown');
}

export function check(change: Partial<OrderInput>, options: SleeveOptionSet = OPTIONS): void {
  checkOrderInput({ ...VALID, ...change }, options);
}

export function expectInvalid(change: Partial<OrderInput>, field: keyof OrderInput, options: SleeveOptionSet = OPTIONS): DomainError {
  const error = domainErrorOf(() => check(change, options));
  expect(error.code).toBe('validation_failed');
  expect(error.status).toBe(422);
  expect(error.retryable).toBe(false);
  expect(error.details.field).toBe(field);
  return error;
}
