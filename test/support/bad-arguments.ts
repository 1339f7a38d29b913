/**
 * MCP tool arguments made by fast-check from the JSON Schema a tool publishes (test/edge/generated-tool-input.test.ts):
 * mostly values of the declared type, valid ones among them where a property's name says what exists (`seeds`), and
 * now and then a required property left out, an unknown one added, or a value of another type. Only the parts of
 * JSON Schema the tools use: object, string (enum), integer, number, boolean, array.
 */
import fc from 'fast-check';
import { oddText, oddValue } from './bad-input.ts';
import type { Seeds } from './bad-variables.ts';

interface JsonSchema {
  type?: string;
  enum?: unknown[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  minimum?: number;
  maximum?: number;
}

function valueOf(schema: JsonSchema, name: string, seeds: Seeds): fc.Arbitrary<unknown> {
  if (schema.enum) return fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...schema.enum) }, { weight: 1, arbitrary: oddText });
  const seed = seeds[name];
  const typed = (): fc.Arbitrary<unknown> => {
    switch (schema.type) {
      case 'integer':
        return fc.oneof(fc.integer({ min: (schema.minimum ?? 0) - 2, max: (schema.maximum ?? 300) + 2 }), fc.constantFrom(0, -1, 2 ** 53, 1.5));
      case 'number':
        return fc.double({ noNaN: true });
      case 'boolean':
        return fc.boolean();
      case 'array':
        return fc.array(valueOf(schema.items ?? {}, name, seeds), { maxLength: 3 });
      case 'object':
        return argumentsOf(schema, seeds);
      default:
        return oddText;
    }
  };
  const value = seed ? fc.oneof({ weight: 3, arbitrary: seed }, { weight: 2, arbitrary: typed() }) : typed();
  return fc.oneof({ weight: 8, arbitrary: value }, { weight: 1, arbitrary: oddValue });
}

/** An arguments object for `schema` (an object schema): its required properties mostly present. */
export function argumentsOf(schema: JsonSchema, seeds: Seeds): fc.Arbitrary<Record<string, unknown>> {
  const properties = schema.properties ?? {};
  const shape = Object.fromEntries(Object.entries(properties).map(([key, inner]) => [key, valueOf(inner, key, seeds)]));
  const required = (schema.required ?? []).filter((key) => key in shape);
  const whole = fc.record(shape, { requiredKeys: required });
  return fc.oneof(
    { weight: 8, arbitrary: whole },
    { weight: 1, arbitrary: fc.record(shape, { requiredKeys: [] }) },
    { weight: 1, arbitrary: fc.tuple(whole, fc.string({ minLength: 1, maxLength: 10 }), oddValue).map(([args, key, value]) => ({ ...args, [key]: value })) },
  );
}
