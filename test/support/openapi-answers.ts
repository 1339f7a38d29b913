/**
 * Checks a REST answer against /openapi.json (docs/agents.md#openapi-document): the document as the server builds
 * it, its response schemas compiled with ajv (JSON Schema 2020-12, OpenAPI 3.1's dialect) by path template, method
 * and status. The shared `rest` helper (gateway.ts) runs it on every answer the suites receive, so an answer the
 * document does not describe fails the test that received it.
 *
 * Answers on paths the document does not name (GraphQL, a path no route has, a method a path does not take) and
 * to HEAD and OPTIONS are not checked here: the route-table test (test/rest/openapi.test.ts) covers which paths
 * are named.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { buildOpenApiDocument, describedRoutes } from '../../rest-compat/openapi/document.ts';

interface ResponseObject {
  description: string;
  content?: Record<string, { schema?: unknown }>;
}
type Operation = { responses: Record<string, ResponseObject> };
type OpenApi = { paths: Record<string, Record<string, Operation>>; components: unknown };

const DOCUMENT_ID = 'https://sleeve.test/openapi.json';
let state: { document: OpenApi; ajv: Ajv2020; templates: Array<{ template: string; pattern: RegExp }> } | undefined;
const compiled = new Map<string, ValidateFunction>();

function load() {
  if (state) return state;
  const document = buildOpenApiDocument(describedRoutes(), 'http://sleeve.test') as unknown as OpenApi;
  // strict: false, because the document around the schemas (info, paths, example…) is not JSON Schema.
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  ajv.addFormat('date-time', { validate: (s: string) => !Number.isNaN(Date.parse(s)) && /^\d{4}-\d\d-\d\dT/u.test(s) });
  ajv.addFormat('date', /^\d{4}-\d\d-\d\d$/u);
  // RFC 3986: printable ASCII only (URL.canParse alone took an example's "…", which a generator's validator refuses).
  ajv.addFormat('uri', { validate: (s: string) => URL.canParse(s) && /^[\x21-\x7e]+$/u.test(s) });
  ajv.addFormat('binary', true);
  ajv.addSchema(document as object, DOCUMENT_ID);
  // Exact templates before patterned ones, as the router matches.
  const templates = Object.keys(document.paths)
    .sort((a, b) => Number(a.includes('{')) - Number(b.includes('{')))
    .map((template) => ({ template, pattern: new RegExp(`^${template.replace(/\{[^}]+\}/gu, '[^/]+')}$`, 'u') }));
  state = { document, ajv, templates };
  return state;
}

const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/gu, '~0').replace(/\//gu, '~1')).join('/');

/**
 * Why this answer does not conform, or null when it does (or is not the document's to judge). `body` is the answer
 * as the helper parsed it (JSON, or the text).
 */
export function answerProblem(method: string, path: string, status: number, contentType: string | null, body: unknown): string | null {
  const verb = method.toUpperCase();
  if (verb === 'HEAD' || verb === 'OPTIONS') return null;
  const { document, templates } = load();
  const bare = path.split('?')[0]!;
  const template = templates.find((t) => t.pattern.test(bare))?.template;
  if (!template) return null;
  const operation = document.paths[template]![verb.toLowerCase()];
  if (!operation) return null;
  const where = `${verb} ${bare} (${template}) answered ${status}`;
  const statusKey = [String(status), `${String(status)[0]}XX`, 'default'].find((key) => key in operation.responses);
  // A route this server was configured without (METRICS=off: no /metrics): the router's own 404 for a path it lacks.
  if (!statusKey && status === 404 && isRouterNotFound(body, `${verb} ${bare}`)) return null;
  if (!statusKey) return `${where}, a status /openapi.json does not list for it (it lists ${Object.keys(operation.responses).join(', ')}).`;
  const response = operation.responses[statusKey]!;
  if (!response.content) {
    return body === '' || body === undefined ? null : `${where} with a body, where /openapi.json describes none.`;
  }
  const media = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  const described = response.content[media];
  if (!described) return `${where} as "${media}", where /openapi.json describes ${Object.keys(response.content).join(', ')}.`;
  if (!media.includes('json') || !described.schema) return null;
  const errors = schemaProblem(['paths', template, verb.toLowerCase(), 'responses', statusKey, 'content', media, 'schema'], body);
  return errors === null ? null : `${where}, a body /openapi.json does not describe: ${errors}. The body: ${JSON.stringify(body).slice(0, 600)}`;
}

/** Why `value` does not conform to the schema at `where` in the document (JSON pointer parts), or null. */
export function schemaProblem(where: string[], value: unknown): string | null {
  const { ajv } = load();
  const key = where.join(' ');
  let validate = compiled.get(key);
  if (!validate) {
    validate = ajv.compile({ $ref: `${DOCUMENT_ID}#/${pointer(...where)}` });
    compiled.set(key, validate);
  }
  return validate(value) ? null : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`).join('; ');
}

/** The body rest-compat/path-family.ts answers for a path no route has, in any family's shape. */
function isRouterNotFound(body: unknown, request: string): boolean {
  const said = typeof body === 'object' && body !== null ? ((body as Record<string, unknown>).error ?? (body as Record<string, unknown>).message) : undefined;
  return said === `There is nothing at ${request}.`;
}

/** Throws with the reason when the answer does not conform. */
export function expectDocumentedAnswer(method: string, path: string, status: number, contentType: string | null, body: unknown): void {
  const problem = answerProblem(method, path, status, contentType, body);
  if (problem) throw new Error(`The answer does not conform to /openapi.json: ${problem}`);
}
