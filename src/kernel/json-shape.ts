/**
 * A small declarative type check for the JSON bodies of document 3 (§2 gives types for many nested fields but says
 * which are required: "not shown"). Every field is optional and may be null unless the caller checks it; a field
 * that is present must have the documented type. Unknown fields are allowed and left alone (they stay in the stored
 * request). Errors name the field by its path, like `listedItems[0].basicItemData.quantity`.
 */
import type { FieldError } from './errors.ts';

export type Scalar = 'string' | 'boolean' | 'integer' | 'number' | 'numeric' | 'object';
export interface ObjectShape {
  kind: 'object';
  fields: Readonly<Record<string, Shape>>;
}
export interface ArrayShape {
  kind: 'array';
  of: Shape;
}
export type Shape = Scalar | ObjectShape | ArrayShape;

export const obj = (fields: Record<string, Shape>): ObjectShape => ({ kind: 'object', fields });
export const arr = (of: Shape): ArrayShape => ({ kind: 'array', of });

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const SCALAR_TEST: Record<Scalar, (v: unknown) => boolean> = {
  string: (v) => typeof v === 'string',
  boolean: (v) => typeof v === 'boolean',
  integer: (v) => Number.isSafeInteger(v),
  number: (v) => typeof v === 'number' && Number.isFinite(v),
  // Amounts and prices: document 3 gives no type, so a number or a numeric string.
  numeric: (v) => (typeof v === 'number' && Number.isFinite(v)) || (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))),
  object: isRecord,
};

const SCALAR_NAME: Record<Scalar, string> = {
  string: 'a string',
  boolean: 'true or false',
  integer: 'an integer',
  number: 'a number',
  numeric: 'a number',
  object: 'an object',
};

/** Appends one error per mistyped field under `path` to `errors`. */
export function checkShape(value: unknown, shape: Shape, path: string, errors: FieldError[]): void {
  if (value === null || value === undefined) return;
  if (typeof shape === 'string') {
    if (!SCALAR_TEST[shape](value)) errors.push({ field: path, message: `${path} must be ${SCALAR_NAME[shape]}.` });
    return;
  }
  if (shape.kind === 'array') {
    if (!Array.isArray(value)) {
      errors.push({ field: path, message: `${path} must be an array.` });
      return;
    }
    value.forEach((item, index) => checkShape(item, shape.of, `${path}[${index}]`, errors));
    return;
  }
  if (!isRecord(value)) {
    errors.push({ field: path, message: `${path} must be an object.` });
    return;
  }
  for (const [name, inner] of Object.entries(shape.fields)) {
    checkShape(value[name], inner, path ? `${path}.${name}` : name, errors);
  }
}
