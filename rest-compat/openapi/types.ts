/**
 * The shape of a route's OpenAPI description, and the helpers every area's description file builds answers with.
 * A description is keyed like the route table writes a route, `METHOD /path/:param` (docs/agents.md#openapi-document):
 * document.ts joins the two tables, and test/rest/openapi.test.ts fails when a route has no description or a
 * description no route.
 */
import { ERROR_CODES, ERROR_REGISTRY, type ErrorCode } from '../../src/kernel/errors.ts';
import { SUPPORTED_API_VERSIONS } from '../../src/sites/platform-headers.ts';

/** A JSON Schema (OpenAPI 3.1 is JSON Schema 2020-12), kept loose: the validators check it, not TypeScript. */
export type Schema = Record<string, unknown>;

export interface MediaType {
  schema?: Schema;
  example?: unknown;
}

export interface ResponseDoc {
  description: string;
  content?: Record<string, MediaType>;
  headers?: Record<string, { description: string; schema: Schema; required?: boolean }>;
}

export interface ParameterDoc {
  name: string;
  in: 'query' | 'header' | 'path';
  required?: boolean;
  description?: string;
  schema: Schema;
  example?: unknown;
}

/** One operation; path parameters default to required strings (document.ts), `pathSchemas` narrows them. */
export interface RouteDoc {
  operationId: string;
  summary: string;
  description?: string;
  tags: [string, ...string[]];
  /** Requirement names from components.securitySchemes; `{}` in the list makes the scheme optional. */
  security?: Array<Record<string, string[]>>;
  pathSchemas?: Record<string, { schema: Schema; description?: string; example?: string }>;
  parameters?: ParameterDoc[];
  requestBody?: { required: boolean; description?: string; content: Record<string, MediaType> };
  responses: Record<string, ResponseDoc>;
}

/** Descriptions of one area, keyed `METHOD /path/:param` exactly as its routes are written. */
export type RouteDocs = Record<string, RouteDoc>;

export const JSON_MEDIA = 'application/json';

export const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });

export function jsonBody(schemaName: string, example?: unknown, description?: string): RouteDoc['requestBody'] {
  return {
    required: true,
    ...(description ? { description } : {}),
    content: { [JSON_MEDIA]: { schema: ref(schemaName), ...(example !== undefined ? { example } : {}) } },
  };
}

export function jsonAnswer(description: string, schema: string | Schema, example?: unknown, headers?: ResponseDoc['headers']): ResponseDoc {
  const media: MediaType = { schema: typeof schema === 'string' ? ref(schema) : schema };
  if (example !== undefined) media.example = example;
  return { description, content: { [JSON_MEDIA]: media }, ...(headers ? { headers } : {}) };
}

export function textAnswer(description: string, mediaType = 'text/plain', example?: string): ResponseDoc {
  return { description, content: { [mediaType]: { schema: { type: 'string' }, ...(example !== undefined ? { example } : {}) } } };
}

export const RETRY_AFTER = { 'Retry-After': { description: 'Seconds to wait before trying again.', schema: { type: 'integer', minimum: 0 }, required: true } };

/** What each status means, written once for every family. */
const STATUS_TEXT: Record<string, string> = {
  '400': 'Bad request: the body is not JSON, has the wrong shape, or a field has the wrong type.',
  '401': 'Unauthorized: no valid credentials.',
  '402': 'Declined: the card was declined; the order stays payable until its hold ends.',
  '404': 'Not found.',
  '409': 'Conflict.',
  '413': 'The request body is larger than MAX_BODY_BYTES.',
  '415': 'The body was sent with a content type other than JSON (docs/edge.md#no-cross-site-writes).',
  '422': 'Validation failed: every field is present and typed, but a value breaks a rule.',
  '429': 'Rate limited; Retry-After says when to come back.',
  '500': 'Something went wrong on the server side; retryable.',
  '502': 'The payment processor failed or did not answer; retryable.',
  '503': 'Unavailable for now; Retry-After says when to come back.',
};

/** Overrides of STATUS_TEXT for one operation, e.g. `{ 409: 'duplicate: …' }`. */
export type StatusNotes = Partial<Record<number, string>>;

function familyErrors(schema: string, statuses: number[], notes: StatusNotes, example: (status: number) => unknown): Record<string, ResponseDoc> {
  const answers: Record<string, ResponseDoc> = {};
  for (const status of statuses) {
    const key = String(status);
    const headers = status === 429 || status === 503 ? RETRY_AFTER : undefined;
    answers[key] = jsonAnswer(notes[status] ?? STATUS_TEXT[key] ?? 'Error.', schema, example(status), headers);
  }
  return answers;
}

const ORDERING_CODE: Record<number, ErrorCode> = {
  400: 'bad_request', 401: 'unauthorized', 402: 'declined', 404: 'not_found', 409: 'duplicate', 413: 'bad_request', 415: 'bad_request',
  422: 'validation_failed', 429: 'rate_limited', 500: 'internal', 502: 'payment_error', 503: 'unavailable',
};

/** A note written `code: sentence` names the code of its example; otherwise the status's usual code. */
function codeAndText(status: number, notes: StatusNotes): { code: ErrorCode; text: string } {
  const note = notes[status] ?? STATUS_TEXT[String(status)] ?? 'Error.';
  const colon = note.indexOf(': ');
  const prefix = colon > 0 ? note.slice(0, colon).split(' ')[0]! : '';
  const named = (ERROR_CODES as string[]).includes(prefix);
  const text = colon > 0 ? note.slice(colon + 2) : note;
  return { code: named ? (prefix as ErrorCode) : ORDERING_CODE[status]!, text: text.charAt(0).toUpperCase() + text.slice(1) };
}

/** Document 1's Error body (`ok: false`, `code`, `error`, `retryable`) at each status. */
export function orderingErrors(statuses: number[], notes: StatusNotes = {}): Record<string, ResponseDoc> {
  return familyErrors('Error', statuses, notes, (status) => {
    const { code, text } = codeAndText(status, notes);
    return { ok: false, code, error: text, retryable: ERROR_REGISTRY[code].retryable };
  });
}

/**
 * Document 3's risk, merchant and payment error body (docs/platform.md#error-bodies); the 400 example names
 * `invalidField`, a field of that operation (an example naming another operation's field misleads a client's author).
 */
export function platformErrors(statuses: number[], notes: StatusNotes = {}, invalidField = 'body'): Record<string, ResponseDoc> {
  const message = invalidField === 'body' ? 'The request body must be a JSON object.' : `${invalidField} is required.`;
  return familyErrors('PlatformError', statuses, notes, (status) =>
    status === 400
      ? { status: 'error', message, errors: [{ field: invalidField, message }] }
      : { status: 'error', message: codeAndText(status, notes).text },
  );
}

/** Document 3's tokenization error body, `{ message }`. */
export function tokenizationErrors(statuses: number[], notes: StatusNotes = {}): Record<string, ResponseDoc> {
  return familyErrors('TokenizationError', statuses, notes, (status) => ({ message: codeAndText(status, notes).text }));
}

/** Basic auth with the site's id and API key (docs/platform.md#credentials). */
export const SITE_AUTH = [{ siteBasic: [] }];

/** The headers every risk and merchant operation requires (document 3 §2 "Common headers"). */
export const PLATFORM_HEADERS: ParameterDoc[] = [
  {
    name: 'x-vendor-siteid',
    in: 'header',
    required: true,
    description: 'The site id; the same as the basic auth user.',
    schema: { type: 'string' },
    example: 'site_test',
  },
  {
    name: 'api-version',
    in: 'header',
    required: true,
    description: 'The API version; `10.3` is supported (docs/platform.md#the-api-version-header).',
    schema: { type: 'string', enum: [...SUPPORTED_API_VERSIONS] },
    example: '10.3',
  },
];
