/**
 * Bad input, made by fast-check from a route's documented example (test/edge/generated-bad-input.test.ts): the
 * example with one field dropped, retyped or swapped for odd text or numbers, an unknown field added, the whole
 * body replaced by any JSON or by broken JSON, sent as a wrong media type; odd path segments; odd header values.
 */
import fc from 'fast-check';

/** fast-check's run options for `runs` cases: FUZZ_RUNS overrides the count, FUZZ_SEED replays a printed seed. */
export function fuzzRuns(runs: number): fc.Parameters<unknown> {
  const seed = process.env.FUZZ_SEED;
  return { numRuns: Number(process.env.FUZZ_RUNS ?? runs), ...(seed === undefined ? {} : { seed: Number(seed) }) };
}

/** Text a validator meets in the field: empty, control characters, lone surrogates, huge, card-like, injection-like. */
export const oddText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    '\uFFFF',
    '\uD800',
    'a'.repeat(5_000),
    '4242424242424242',
    '../../etc/passwd',
    '%00',
    '${7*7}',
    '<script>alert(1)</script>',
    '𝔘𝔫𝔦𝔠𝔬𝔡𝔢 👩‍👩‍👧',
    'null',
    '-0',
    '1e309',
    'Ada\nLovelace',
    '__proto__',
  ),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
);

/** Any value a JSON body can hold where the example has one. */
export const oddValue: fc.Arbitrary<unknown> = fc.oneof(
  oddText,
  fc.integer(),
  fc.double({ noNaN: true }),
  fc.constantFrom(0, -1, 1.5, 1e21, 2 ** 53 + 1, Number.MAX_SAFE_INTEGER, -Number.MAX_VALUE),
  fc.boolean(),
  fc.constant(null),
  fc.array(oddText, { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 6 }), oddText, { maxKeys: 3 }),
  fc.jsonValue({ maxDepth: 3 }),
);

/** Bodies no JSON parser accepts, or accepts to surprise the code after it. */
const brokenJson = (example: string): fc.Arbitrary<string> =>
  fc.oneof(
    fc.constantFrom('', '{', '{"a":', 'nul', '[', '"', '{"a":1,"a":2}', '\u0000', '{"__proto__":{"polluted":1}}', '{"constructor":{"prototype":{"polluted":1}}}', '['.repeat(3_000) + ']'.repeat(3_000)),
    fc.nat({ max: Math.max(0, example.length - 1) }).map((cut) => example.slice(0, cut)),
  );

/** Every path to a value inside `value` (objects and arrays, three levels deep). */
function leafPaths(value: unknown, depth = 0): Array<Array<string | number>> {
  if (depth >= 3 || value === null || typeof value !== 'object') return [];
  const entries = Array.isArray(value) ? value.map((v, i) => [i, v] as const) : Object.entries(value);
  return entries.flatMap(([key, inner]) => [[key], ...leafPaths(inner, depth + 1).map((rest) => [key, ...rest])]);
}

/** `value` with the field at `path` replaced by `by`, or dropped when `by` is the DROP marker. */
const DROP = Symbol('drop');
function changed(value: unknown, path: Array<string | number>, by: unknown): unknown {
  const copy = structuredClone(value) as Record<string | number, unknown>;
  let parent = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  const last = path.at(-1)!;
  if (by === DROP) {
    if (Array.isArray(parent)) parent.splice(Number(last), 1);
    else delete parent[last];
  } else parent[last] = by;
  return copy;
}

export interface BadBody {
  text: string;
  contentType: string;
  /** What was done, for the failure message. */
  how: string;
}

/** Bodies made from `example` (the route's documented request example), mostly sent as JSON. */
export function badBodies(example: unknown): fc.Arbitrary<BadBody> {
  const exampleText = JSON.stringify(example ?? {});
  const paths = leafPaths(example);
  const asJson = (how: string) => (value: unknown) => ({ text: JSON.stringify(value), how });
  const fieldChanges =
    paths.length === 0
      ? []
      : [
          // Most cases change one field: that reaches each rule with the rest of the body valid.
          { weight: 4, arbitrary: fc.tuple(fc.constantFrom(...paths), oddValue).map(([path, by]) => asJson(`${path.join('.')} := ${JSON.stringify(by)?.slice(0, 80)}`)(changed(example, path, by))) },
          { weight: 2, arbitrary: fc.constantFrom(...paths).map((path) => asJson(`${path.join('.')} dropped`)(changed(example, path, DROP))) },
        ];
  const body = fc.oneof(
    ...fieldChanges,
    { weight: 1, arbitrary: fc.tuple(fc.string({ minLength: 1, maxLength: 12 }), oddValue).map(([key, by]) => asJson(`unknown field ${key}`)({ ...(example as object), [key]: by })) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((value) => asJson('replaced')(value)) },
    { weight: 1, arbitrary: brokenJson(exampleText).map((text) => ({ text, how: 'broken JSON' })) },
  );
  const contentType = fc.oneof(
    { weight: 8, arbitrary: fc.constant('application/json') },
    { weight: 1, arbitrary: fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=utf-16', 'multipart/form-data; boundary=x', 'application/merge-patch+json', '*/*', 'application/json, text/plain') },
  );
  return fc.tuple(body, contentType).map(([b, type]) => ({ ...b, contentType: type }));
}

/** A path segment: mostly `valid` (an object that exists), else odd, broken percent-encoding included. */
export function pathSegment(valid: string): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.constant(valid) },
    { weight: 1, arbitrary: fc.constantFrom('0', '-1', '1.5', '1e3', '99999999999999999999999', '%2e%2e', '%', '%zz', '%C0%AF', 'a'.repeat(3_000), '%F0%9F%92%A5', '%20') },
    { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 20 }).map(encodeURIComponent) },
  );
}

/** A header value: mostly `valid`, else odd printable text (fetch refuses what is not a byte string). */
export function headerValue(valid: string): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.constant(valid) },
    { weight: 1, arbitrary: fc.constantFrom('', ' ', 'Basic', 'Basic !!!', 'Bearer x', '0', '99.9', 'a'.repeat(2_000)) },
    { weight: 1, arbitrary: fc.string({ maxLength: 30 }).filter((s) => /^[\x20-\x7e]*$/u.test(s)) },
  );
}
