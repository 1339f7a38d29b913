/**
 * GraphQL variables made by fast-check from the schema's own argument types (test/edge/generated-graphql-input.test.ts):
 * mostly values of the declared type, valid ones among them where a name says what exists (`seeds`: an order number,
 * its payToken, a site id…), and now and then a null where a value is required, a list where one value is, or a
 * value of another type, which the executor must refuse before any resolver runs.
 */
import fc from 'fast-check';
import {
  getNamedType,
  isEnumType,
  isInputObjectType,
  isLeafType,
  isListType,
  isNonNullType,
  isUnionType,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLNamedType,
} from 'graphql';
import { oddText, oddValue } from './bad-input.ts';
import { VALID_ORDER } from './gateway.ts';

/** Arbitraries for arguments and input fields whose name says what a valid value is. */
export type Seeds = Record<string, fc.Arbitrary<unknown>>;

/** Seeds for an order that exists (its number and payToken), a fresh email, and the valid order's other fields. */
export function orderSeeds(order: { orderNumber: string; payToken: string }): Seeds {
  return {
    orderNumber: fc.constant(order.orderNumber),
    payToken: fc.constant(order.payToken),
    t: fc.constant(order.payToken),
    email: fc.nat().map((n) => `fuzz-${n}@example.com`),
    name: fc.constant(VALID_ORDER.name),
    collectorName: fc.constant(VALID_ORDER.name),
    size: fc.constant(VALID_ORDER.size),
    font: fc.constant(VALID_ORDER.font),
    thread: fc.constant(VALID_ORDER.thread),
    stitchText: fc.constant(VALID_ORDER.stitchText),
    reason: fc.constant('fuzz'),
  };
}

function scalarValue(name: string, seed: fc.Arbitrary<unknown> | undefined): fc.Arbitrary<unknown> {
  const typed: Record<string, fc.Arbitrary<unknown>> = {
    Int: fc.oneof(fc.integer({ min: -5, max: 300 }), fc.constantFrom(0, -1, 2 ** 31, 2 ** 53, 1.5)),
    Float: fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constantFrom(0, -1, 0.001, 1e21)),
    Boolean: fc.boolean(),
    DateTime: fc.oneof(fc.constantFrom('2026-11-29T10:00:00.000Z', '1970-01-01T00:00:00Z', '2026-13-45T99:99:99Z'), oddText),
  };
  const any = typed[name] ?? oddText; // String, ID
  return seed ? fc.oneof({ weight: 3, arbitrary: seed }, { weight: 2, arbitrary: any }) : any;
}

/** A value for `type`; `name` (the argument's or field's) picks a seed. */
export function valueOf(type: GraphQLInputType, name: string, seeds: Seeds, depth = 0): fc.Arbitrary<unknown> {
  if (isNonNullType(type)) {
    return fc.oneof({ weight: 14, arbitrary: valueOf(type.ofType, name, seeds, depth) }, { weight: 1, arbitrary: fc.constant(null) });
  }
  const inner = (): fc.Arbitrary<unknown> => {
    if (isListType(type)) return fc.array(valueOf(type.ofType, name, seeds, depth + 1), { maxLength: depth > 2 ? 0 : 3 });
    if (isEnumType(type)) {
      const values = type.getValues().map((v) => v.name);
      return fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...values) }, { weight: 1, arbitrary: oddText });
    }
    if (isInputObjectType(type)) {
      const fields = Object.values(type.getFields());
      const shape = Object.fromEntries(fields.map((field) => [field.name, valueOf(field.type, field.name, seeds, depth + 1)]));
      const requiredKeys = fields.filter((field) => isNonNullType(field.type)).map((field) => field.name);
      return fc.record(shape, { requiredKeys });
    }
    return scalarValue(type.name, seeds[name]);
  };
  return fc.oneof({ weight: 8, arbitrary: inner() }, { weight: 1, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: oddValue });
}

/** Every argument of `field` as `$a0…`, with a value for each: one in twelve replaced by any JSON value. */
export function variablesFor(field: GraphQLField<unknown, unknown>, seeds: Seeds): fc.Arbitrary<Record<string, unknown>> {
  const shape = Object.fromEntries(field.args.map((arg, i) => [`a${i}`, fc.oneof({ weight: 11, arbitrary: valueOf(arg.type, arg.name, seeds) }, { weight: 1, arbitrary: oddValue })]));
  return fc.record(shape, { requiredKeys: [] });
}

/** The operation calling `field` with `$a0…`, selecting `__typename` (and an ApiError's code) of what it returns. */
export function operationFor(kind: 'query' | 'mutation' | 'subscription', field: GraphQLField<unknown, unknown>): string {
  const definitions = field.args.length === 0 ? '' : `(${field.args.map((arg, i) => `$a${i}: ${String(arg.type)}`).join(', ')})`;
  const call = field.args.length === 0 ? '' : `(${field.args.map((arg, i) => `${arg.name}: $a${i}`).join(', ')})`;
  const named: GraphQLNamedType = getNamedType(field.type);
  const errorCode = isUnionType(named) && named.getTypes().some((member) => member.name === 'ApiError') ? ' ... on ApiError { code }' : '';
  const selection = isLeafType(named) ? '' : ` { __typename${errorCode} }`;
  return `${kind} Fuzz${definitions} { ${field.name}${call}${selection} }`;
}
