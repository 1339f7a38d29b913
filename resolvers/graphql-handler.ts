/**
 * The GraphQL door: graphql-yoga over the Pothos schema, with masking, query limits (GraphQL Armor), graphql-jit
 * and the shared rate limits. Every yoga feature a client can use stays: GET, GraphiQL, SSE, batching refusal,
 * the body-size limit.
 *
 * One fast path: a plain JSON POST (the request every app sends) is read straight from node:http and handed to
 * yoga's own `getResultForParams` — yoga's params checks, parse/validate caches, context, jit execution and
 * masking, unchanged — skipping only the Fetch Request/Response objects that cost more than the query itself.
 * A result with errors is rendered by yoga's own result processor, so status codes and bodies stay yoga's.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { useGraphQlJit } from '@envelop/graphql-jit';
import { costLimitPlugin } from '@escape.tech/graphql-armor-cost-limit';
import { maxAliasesPlugin } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthPlugin } from '@escape.tech/graphql-armor-max-depth';
import { maxTokensPlugin } from '@escape.tech/graphql-armor-max-tokens';
import type { GraphQLSchema } from 'graphql';
import { createYoga, isAsyncIterable, processRegularResult, type YogaServerInstance } from 'graphql-yoga';
import { PayloadTooLargeError, readBody } from '../src/http/read-body.ts';
import type { Logger } from '../src/logger.ts';
import type { RateLimiter } from '../src/security/rate-limiter.ts';
import type { Services } from '../src/services/services.ts';
import type { GraphQLContext } from '../schema/context.ts';
import { maskDomainErrors } from '../schema/errors.ts';
import { createContextFactory } from './context.ts';
import { useRateLimit } from './use-rate-limit.ts';

export interface ServerContext {
  clientAddress: string;
}

export interface GraphQLDoor {
  yoga: YogaServerInstance<ServerContext, GraphQLContext>;
  /** Fetch handler (in-memory gateway, tests). */
  fetch(request: Request, serverContext: ServerContext): Promise<Response>;
  /** node:http handler for requests to /graphql. */
  handleNode(req: IncomingMessage, res: ServerResponse, serverContext: ServerContext): Promise<void>;
}

export interface GraphQLDoorDeps {
  schema: GraphQLSchema;
  services: Services;
  limiter: RateLimiter;
  logger: Logger;
  adminToken: string;
  publicUrl: string;
  maxBodyBytes: number;
}

export const GRAPHQL_PATH = '/graphql';

export function createGraphQLDoor(deps: GraphQLDoorDeps): GraphQLDoor {
  const createContext = createContextFactory(deps);
  const yoga = createYoga<ServerContext, GraphQLContext>({
    schema: deps.schema,
    graphqlEndpoint: GRAPHQL_PATH,
    landingPage: false,
    graphiql: { title: 'Sleeve Gateway', defaultQuery: '{\n  sleeveOptions {\n    sizes\n    fonts\n    threads\n    charLimit\n  }\n}\n' },
    maskedErrors: { maskError: maskDomainErrors },
    logging: {
      debug: (...args) => deps.logger.debug('graphql', { detail: args.map(String).join(' ') }),
      info: (...args) => deps.logger.info('graphql', { detail: args.map(String).join(' ') }),
      warn: (...args) => deps.logger.warn('graphql', { detail: args.map(String).join(' ') }),
      error: (...args) => deps.logger.error('graphql', { detail: args.map(String).join(' ') }),
    },
    context: ({ request, clientAddress }) =>
      createContext({ authorization: request.headers.get('authorization'), clientAddress }),
    plugins: [
      maxTokensPlugin({ n: 2000 }),
      maxDepthPlugin({ n: 12, ignoreIntrospection: true }),
      maxAliasesPlugin({ n: 20 }),
      costLimitPlugin({ maxCost: 5000 }),
      useGraphQlJit(),
      useRateLimit(deps.limiter),
    ],
  });

  async function handleNode(req: IncomingMessage, res: ServerResponse, serverContext: ServerContext): Promise<void> {
    if (!isPlainJsonPost(req)) {
      await yoga.handleNodeRequestAndResponse(req, res, serverContext);
      return;
    }
    const fast = await fastJsonPost(req, serverContext);
    res.writeHead(fast.status, fast.headers);
    res.end(fast.body);
  }

  async function fastJsonPost(
    req: IncomingMessage,
    serverContext: ServerContext,
  ): Promise<{ status: number; headers: Record<string, string>; body: string }> {
    const accepted = acceptedMediaType(req.headers.accept);
    let params: unknown;
    try {
      const raw = await readBody(req, deps.maxBodyBytes);
      params = JSON.parse(raw);
    } catch (error) {
      const tooLarge = error instanceof PayloadTooLargeError;
      return {
        status: tooLarge ? 413 : 400,
        headers: { 'content-type': `${accepted}; charset=utf-8` },
        body: JSON.stringify({ errors: [{ message: tooLarge ? 'Request body is too large.' : 'POST body sent invalid JSON.' }] }),
      };
    }
    // A light stand-in for the Fetch Request: the context factory and yoga's plugins read only these members.
    const request = lightRequest(req);
    const result = await yoga.getResultForParams(
      { params: params as never, request },
      { ...serverContext, request, params } as never,
    );
    if (result && !isAsyncIterable(result) && !Array.isArray(result) && !result.errors?.length && !result.extensions) {
      const stringify = (result as { stringify?: (r: unknown) => string }).stringify ?? JSON.stringify;
      return { status: 200, headers: { 'content-type': `${accepted}; charset=utf-8` }, body: stringify(result) };
    }
    const response = await processRegularResult(result as never, yoga.fetchAPI, accepted);
    const headers: Record<string, string> = {};
    response.headers.forEach((value, key) => {
      headers[key] = value;
    });
    return { status: response.status, headers, body: await response.text() };
  }

  return {
    yoga,
    fetch: (request, serverContext) => Promise.resolve(yoga.fetch(request, serverContext)),
    handleNode,
  };
}

/** POST application/json to /graphql, answered as JSON (not SSE, not multipart, not a batch of files). */
function isPlainJsonPost(req: IncomingMessage): boolean {
  if (req.method !== 'POST') return false;
  const type = req.headers['content-type'];
  if (!type || !type.toLowerCase().startsWith('application/json')) return false;
  const accept = req.headers.accept;
  return !accept || !/text\/event-stream|multipart\/mixed/iu.test(accept);
}

/** yoga's choice between its two JSON media types: the first one the client accepts, else graphql-response. */
function acceptedMediaType(accept: string | undefined): string {
  if (!accept) return 'application/graphql-response+json';
  for (const part of accept.split(',')) {
    const type = part.split(';')[0]!.trim().toLowerCase();
    if (type === 'application/graphql-response+json') return type;
    if (type === 'application/json') return type;
    if (type === '*/*' || type === 'application/*') return 'application/graphql-response+json';
  }
  return 'application/json';
}

function lightRequest(req: IncomingMessage): Request {
  const headers = {
    get: (name: string) => {
      const value = req.headers[name.toLowerCase()];
      return Array.isArray(value) ? value.join(', ') : (value ?? null);
    },
    has: (name: string) => req.headers[name.toLowerCase()] !== undefined,
  };
  return { method: 'POST', url: `http://localhost${req.url ?? GRAPHQL_PATH}`, headers } as unknown as Request;
}
