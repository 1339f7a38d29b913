import { readFileSync } from 'node:fs';
import { buildSchema, isEnumType, isInputObjectType, isInterfaceType, isObjectType, type GraphQLObjectType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { printedSchema, SCHEMA_FILE } from '../../schema/print.ts';

describe('schema/schema.graphql', () => {
  it('is the schema the code builds (run `npm run schema:print` when this fails)', () => {
    const checkedIn = readFileSync(SCHEMA_FILE, 'utf8');
    expect(checkedIn, 'schema/schema.graphql is stale: run `npm run schema:print` and commit it').toBe(printedSchema());
  });

  it('has the root fields docs/graphql.md#root-fields for document 1', () => {
    // Each root field's signature as SDL writes it on one line (its arguments' descriptions aside).
    const schema = buildSchema(printedSchema());
    const sdl = ['Query', 'Mutation', 'Subscription']
      .flatMap((root) => Object.values((schema.getType(root) as GraphQLObjectType).getFields()))
      .map((field) => `${field.name}${field.args.length ? `(${field.args.map((arg) => `${arg.name}: ${String(arg.type)}`).join(', ')})` : ''}: ${String(field.type)}`)
      .join('\n');
    for (const field of [
      'sleeveOptions: SleeveOptions!',
      'order(orderNumber: ID!, payToken: String!): Order',
      'eventInfo: String!',
      'createOrder(input: OrderInput!): CreateOrderResult!',
      'payOrder(input: PayInput!, orderNumber: ID!): PayOrderResult!',
    ]) {
      expect(sdl).toContain(field);
    }
    expect(printedSchema()).toContain('union CreateOrderResult = ApiError | Order');
    expect(printedSchema()).toContain('union PayOrderResult = ApiError | PayResult');
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

  it('describes what a frontend sends and switches on while ordering too: the arguments, the input and the enums (a frontend team\'s review)', () => {
    const schema = buildSchema(printedSchema());
    const undescribed: string[] = [];
    const ordering = { Query: ['order'], Mutation: ['createOrder', 'payOrder'], Subscription: ['holdCountdown', 'orderUpdates'] };
    for (const [root, names] of Object.entries(ordering)) {
      for (const name of names) {
        const field = (schema.getType(root) as GraphQLObjectType).getFields()[name]!;
        for (const arg of field.args) if (!arg.description) undescribed.push(`${root}.${name}(${arg.name})`);
      }
    }
    for (const name of ['OrderInput', 'OrderStatus', 'ErrorCode', 'PayMethod']) {
      const type = schema.getType(name);
      if (!type?.description) undescribed.push(name);
      if (isInputObjectType(type)) for (const field of Object.values(type.getFields())) if (!field.description) undescribed.push(`${name}.${field.name}`);
      if (isEnumType(type)) for (const value of type.getValues()) if (!value.description) undescribed.push(`${name}.${value.name}`);
    }
    expect(undescribed).toEqual([]);
  });

  it('describes every type, field, argument, input field and enum value (GraphiQL and codegen show them)', () => {
    const schema = buildSchema(printedSchema());
    // The built-in scalars carry graphql-js's own descriptions; the root types are described by their fields.
    const exempt = new Set(['Query', 'Mutation', 'Subscription', 'String', 'Int', 'Float', 'Boolean', 'ID']);
    const undescribed: string[] = [];
    for (const type of Object.values(schema.getTypeMap())) {
      if (type.name.startsWith('__')) continue;
      if (!type.description && !exempt.has(type.name)) undescribed.push(`TYPE ${type.name}`);
      if (isObjectType(type) || isInterfaceType(type)) {
        for (const field of Object.values(type.getFields())) {
          if (!field.description) undescribed.push(`${type.name}.${field.name}`);
          for (const arg of field.args) if (!arg.description) undescribed.push(`${type.name}.${field.name}(${arg.name})`);
        }
      }
      if (isInputObjectType(type)) for (const field of Object.values(type.getFields())) if (!field.description) undescribed.push(`${type.name}.${field.name}`);
      if (isEnumType(type)) for (const value of type.getValues()) if (!value.description) undescribed.push(`${type.name}.${value.name}`);
    }
    expect(undescribed).toEqual([]);
  });
});
