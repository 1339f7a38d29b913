/**
 * The OpenAPI descriptions of what is not an API but is served on the same paths: the web pages (text/html), the files
 * they load, the option preview images, the operator's paths (operations.ts) and the agents' own entry points
 * (agents.ts: this document, its reference page, llms.txt). Listed so that the document names every path the server
 * answers; tagged apart so a client generator can leave them out.
 */
import { orderingErrors, jsonAnswer, textAnswer, type RouteDoc, type RouteDocs } from './types.ts';

const page = (operationId: string, summary: string, description?: string): RouteDoc => ({
  operationId,
  summary,
  ...(description ? { description } : {}),
  tags: ['Pages'],
  responses: { '200': textAnswer('The page.', 'text/html') },
});

const file = (operationId: string, summary: string, mediaType: string, extra: RouteDoc['responses'] = {}): RouteDoc => ({
  operationId,
  summary,
  tags: ['Pages'],
  responses: { '200': textAnswer('The file.', mediaType), ...extra },
});

const notFound = orderingErrors([404], { 404: 'not_found: no such file.' });

/** A 404 that a browser gets as a page (text/html) and an API client as JSON. */
function withPageFor404(responses: RouteDoc['responses']): RouteDoc['responses'] {
  const json = responses['404']!;
  return { ...responses, '404': { ...json, content: { ...json.content, 'text/html': { schema: { type: 'string' } } } } };
}

export const PAGES_DOCS: RouteDocs = {
  'GET /': page('orderPage', 'The ordering page for attendees'),
  'GET /staff': page('staffConsole', 'The staff console', 'It talks only GraphQL, with the staff bearer token.'),
  'GET /display': page('pickupDisplay', 'The pickup display'),
  'GET /pay/:orderNumber': {
    ...page('payPage', 'The hosted pay page at payUrl', 'Its address carries the payToken as `t`.'),
    pathSchemas: { orderNumber: { schema: { type: 'string' }, description: 'The order number; anything but digits answers 404.' } },
    responses: { '200': textAnswer('The page.', 'text/html'), ...withPageFor404(orderingErrors([404], { 404: 'not_found: not an order number. A browser (Accept with text/html) gets the page saying the payment link is not valid, still 404.' })) },
  },
  'GET /assets/graphql-ws.js': file('graphqlWsClient', "graphql-ws's browser build, loaded by the pages", 'text/javascript'),
  'GET /assets/app/:file': {
    ...file('appAsset', "A module or style sheet of the pages", 'text/javascript', notFound),
    responses: {
      '200': { description: 'The file.', content: { 'text/javascript': { schema: { type: 'string' } }, 'text/css': { schema: { type: 'string' } } } },
      ...notFound,
    },
  },
  'GET /favicon.ico': file('favicon', 'The site icon (SVG)', 'image/svg+xml'),
  'GET /images/options/:kind/:file': {
    ...file('optionImage', 'The preview image of one option choice (linked from SleeveOptions)', 'image/svg+xml', notFound),
    pathSchemas: {
      kind: { schema: { type: 'string', enum: ['size', 'font', 'thread'] } },
      file: { schema: { type: 'string' }, description: 'The choice value followed by `.svg`.', example: '13-inch.svg' },
    },
  },
  'GET /portal': page('merchantPortal', "The merchant portal: a site's webhook endpoints and deliveries"),
  'GET /preview.svg': {
    ...file('sleevePreview', 'A picture of a sleeve as it will be stitched (the order\'s previewImage)', 'image/svg+xml'),
    parameters: ['size', 'font', 'thread', 'text'].map((name) => ({ name, in: 'query' as const, required: true, schema: { type: 'string' } })),
    responses: { '200': textAnswer('The picture.', 'image/svg+xml'), ...orderingErrors([400, 422, 429, 500, 503]) },
  },
  'GET /docs': page('apiReference', 'This API reference (Redoc, served from this server)'),
  'GET /docs/redoc.standalone.js': file('redocBundle', "Redoc's standalone bundle, which renders /docs", 'text/javascript'),
  'GET /openapi.json': {
    operationId: 'getOpenApiDocument',
    summary: 'This OpenAPI 3.1 document',
    tags: ['Agents'],
    responses: { '200': jsonAnswer('The document.', { type: 'object', required: ['openapi', 'info', 'paths'] }) },
  },
  'GET /llms.txt': {
    operationId: 'getLlmsIndex',
    summary: 'The index for agents (llms.txt)',
    description: 'Links /llms-full.txt, /openapi.json, /docs and /mcp, and states the rules for client agents.',
    tags: ['Agents'],
    responses: { '200': textAnswer('The index, in the llms.txt format (Markdown).', 'text/plain') },
  },
  'GET /health': {
    operationId: 'health',
    summary: 'Alive while the process runs',
    tags: ['Operations'],
    responses: { '200': jsonAnswer('Alive.', 'Health', { status: 'ok' }) },
  },
  'GET /ready': {
    operationId: 'ready',
    summary: 'Whether this instance should get traffic now',
    tags: ['Operations'],
    responses: {
      '200': jsonAnswer('Ready.', 'Readiness', { status: 'ready', checks: { database: 'ok', shutdown: 'ok' } }),
      '503': jsonAnswer('Not ready (a dependency fails, or the instance drains).', 'Readiness', { status: 'unavailable', checks: { database: 'ok', shutdown: 'draining' } }),
    },
  },
  'GET /metrics': {
    operationId: 'metrics',
    summary: "Prometheus's text exposition (METRICS=on)",
    description: 'With METRICS_TOKEN set, only `Authorization: Bearer METRICS_TOKEN` reads it.',
    tags: ['Operations'],
    security: [{}, { metricsToken: [] }],
    responses: {
      '200': textAnswer('The metrics.', 'text/plain'),
      ...orderingErrors([401], { 401: 'unauthorized: METRICS_TOKEN is set and was not sent.' }),
    },
  },
};
