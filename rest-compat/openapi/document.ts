/**
 * /openapi.json, generated from the REST door's own route table (docs/agents.md#openapi-document): every route the
 * router holds becomes an operation, with the description keyed by its `METHOD /path/:param` in the area tables.
 * A route with no description, or a description with no route, is what `routeCoverage` reports, and
 * test/rest/openapi.test.ts fails on either; at run time an undescribed route is left out rather than guessed.
 * Built once per server (agents.ts caches the bytes), never per request.
 */
import { ORDERING_DOCS } from './ordering-docs.ts';
import { ORDERING_SCHEMAS } from './ordering-schemas.ts';
import { PAGES_DOCS } from './pages-docs.ts';
import { PLATFORM_DOCS } from './platform-docs.ts';
import { PLATFORM_SCHEMAS } from './platform-schemas.ts';
import type { RouteDoc, RouteDocs } from './types.ts';
import { WEBHOOK_ENDPOINT_DOCS, WEBHOOK_ENDPOINT_SCHEMAS } from './webhook-endpoint-docs.ts';

/** A route as the table writes it: enough to find its description. */
export interface RouteRef {
  method: string;
  path: string;
}

export const routeKey = (route: RouteRef): string => `${route.method} ${route.path}`;

function merge(...tables: RouteDocs[]): RouteDocs {
  const all: RouteDocs = {};
  for (const table of tables) {
    for (const [key, doc] of Object.entries(table)) {
      if (key in all) throw new Error(`Two OpenAPI descriptions for ${key}.`);
      all[key] = doc;
    }
  }
  return all;
}

/** Every description, by route key. */
export const ROUTE_DOCS: RouteDocs = merge(ORDERING_DOCS, PLATFORM_DOCS, WEBHOOK_ENDPOINT_DOCS, PAGES_DOCS);

/** The routes with no description, and the descriptions with no route: both must be empty. */
export function routeCoverage(routes: readonly RouteRef[]): { undescribed: string[]; unrouted: string[] } {
  const keys = new Set(routes.map(routeKey));
  return {
    undescribed: [...keys].filter((key) => !(key in ROUTE_DOCS)),
    unrouted: Object.keys(ROUTE_DOCS).filter((key) => !keys.has(key)),
  };
}

/** The routes every description names: what the test support validates answers against. */
export function describedRoutes(): RouteRef[] {
  return Object.keys(ROUTE_DOCS).map((key) => {
    const space = key.indexOf(' ');
    return { method: key.slice(0, space), path: key.slice(space + 1) };
  });
}

/** `/api/orders/:orderNumber` → `/api/orders/{orderNumber}`. */
export const openApiPath = (path: string): string => path.replace(/:([A-Za-z0-9_]+)/gu, '{$1}');

const pathParameterNames = (path: string): string[] => [...path.matchAll(/:([A-Za-z0-9_]+)/gu)].map((m) => m[1]!);

function operation(route: RouteRef, doc: RouteDoc): Record<string, unknown> {
  const pathParameters = pathParameterNames(route.path).map((name) => {
    const given = doc.pathSchemas?.[name];
    return {
      name,
      in: 'path',
      required: true,
      schema: given?.schema ?? { type: 'string' },
      ...(given?.description ? { description: given.description } : {}),
      ...(given?.example ? { example: given.example } : {}),
    };
  });
  const parameters = [...pathParameters, ...(doc.parameters ?? [])];
  return {
    operationId: doc.operationId,
    summary: doc.summary,
    ...(doc.description ? { description: doc.description } : {}),
    tags: doc.tags,
    // No requirement is said as such (`[]`): a generator or linter cannot tell a public path from a forgotten one.
    security: doc.security ?? [],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(doc.requestBody ? { requestBody: doc.requestBody } : {}),
    responses: doc.responses,
  };
}

const SECURITY_SCHEMES = {
  siteBasic: {
    type: 'http',
    scheme: 'basic',
    description: 'HTTP basic auth `siteId:apiKey`: the bootstrap site (VENDOR_SITE_ID / VENDOR_API_KEY) or a merchant created with POST /merchants.',
  },
  staffBearer: {
    type: 'http',
    scheme: 'bearer',
    description: 'The staff token (ADMIN_TOKEN), for staff operations: GraphQL at /graphql and the staff tools of /mcp.',
  },
  metricsToken: { type: 'http', scheme: 'bearer', description: 'METRICS_TOKEN, when set, to read /metrics.' },
};

const TAGS = [
  { name: 'Ordering', description: "Document 1: the sleeve ordering service, written for AI agents acting for attendees." },
  { name: 'Pay page', description: "The hosted pay page's own paths, authorized by the order's payToken." },
  { name: 'Decision platform', description: 'Document 3: merchants, 3DS enrollment, item-listing and profile-access decisions.' },
  { name: 'Payments', description: 'Document 3: payment creation.' },
  { name: 'Tokenization', description: 'Document 3: the card vault.' },
  { name: 'Claims and evidence', description: "Document 2's evidence operations and the processor verification webhook." },
  { name: 'Webhook endpoints', description: "A site's endpoints for document 2's notifications." },
  { name: 'Agents', description: 'Entry points for agents: this document and llms.txt (the MCP server is at /mcp).' },
  { name: 'Operations', description: "The operator's paths." },
  { name: 'Pages', description: 'Web pages and the files they load; not an API.' },
];

const AGENT_RULES =
  'Rules for client agents (document 1): (1) before creating an order, confirm size, font, thread, stitchText, name and ' +
  'email with the user, and spell stitchText back, because embroidery is permanent; choose an option for the user only ' +
  'if asked. (2) Ask the user how to pay and offer both ways (the payUrl page, the demo card `vendor_card`); never ' +
  'choose for the user. (3) Relay `message` and follow `nextAction`. (4) Tell the user the hold deadline ' +
  '(`holdUntilText`). (5) On an error, relay `error`; retry only when `retryable` is true.';

/** The document for the routes a server holds, addressed at `serverUrl` (PUBLIC_URL). */
export function buildOpenApiDocument(routes: readonly RouteRef[], serverUrl: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const doc = ROUTE_DOCS[routeKey(route)];
    if (!doc) continue;
    const item = (paths[openApiPath(route.path)] ??= {});
    item[route.method.toLowerCase()] = operation(route, doc);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Sleeve Gateway',
      version: '1.0.0',
      summary: 'Live-event sleeve ordering, the decision platform, payments, tokenization and merchant notifications.',
      description: `${AGENT_RULES}\n\nGraphQL is served at /graphql, an MCP server at /mcp, and an index for agents at /llms.txt.`,
    },
    servers: [{ url: serverUrl }],
    tags: TAGS,
    paths,
    components: {
      schemas: { ...ORDERING_SCHEMAS, ...PLATFORM_SCHEMAS, ...WEBHOOK_ENDPOINT_SCHEMAS },
      securitySchemes: SECURITY_SCHEMES,
    },
  };
}
