import { readFileSync } from 'node:fs';
import { buildSchema, isObjectType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { printedSchema, SCHEMA_FILE } from '../../schema/print.ts';

describe('schema/schema.graphql', () => {
  it('is the schema the code builds (run `npm run schema:print` when this fails)', () => {
    const checkedIn = readFileSync(SCHEMA_FILE, 'utf8');
    expect(checkedIn, 'schema/schema.graphql is stale: run `npm run schema:print` and commit it').toBe(printedSchema());
  });

  it('has the root fields docs/graphql.md#root-fields for document 1', () => {
    const sdl = printedSchema();
    for (const field of [
      'sleeveOptions: SleeveOptions!',
      'order(orderNumber: ID!, payToken: String!): Order',
      'eventInfo: String!',
      'createOrder(input: OrderInput!): CreateOrderResult!',
      'payOrder(input: PayInput!, orderNumber: ID!): PayOrderResult!',
    ]) {
      expect(sdl).toContain(field);
    }
    expect(sdl).toContain('union CreateOrderResult = ApiError | Order');
    expect(sdl).toContain('union PayOrderResult = ApiError | PayResult');
  });

  it('describes every field a frontend reads while ordering, paying and waiting (GraphiQL and codegen show them)', () => {
    const schema = buildSchema(printedSchema());
    const types = ['Query', 'Mutation', 'Subscription', 'Order', 'OrderedSleeve', 'PayResult', 'ApiError', 'SleeveOptions', 'Choice', 'HoldTick', 'PickupEntry', 'PickupBoardEvent'];
    const undescribed = types.flatMap((name) => {
      const type = schema.getType(name);
      if (!isObjectType(type)) return [`${name} is not an object type`];
      return Object.values(type.getFields()).filter((field) => !field.description).map((field) => `${name}.${field.name}`);
    });
    expect(undescribed).toEqual([]);
  });
});
