/**
 * The GraphQL door: graphql-yoga over the Pothos schema, with masking, query limits (GraphQL Armor), graphql-jit
 * and the shared rate limits. Every yoga feature a client can use stays: GET, GraphiQL, SSE, batching refusal,
 * the body-size limit.
 *
 * One fast path: a plain JSON POST (the request every app sends) is read straight from node:http and run through
 * yoga's own envelop pipeline (`yoga.getEnveloped`: its plugins, document cache, context, jit execution and
 * masking, unchanged), skipping the Fetch Request/Response objects and per-request hook layers that cost more
 * than the query itself. A result with errors is rendered by yoga's own result processor, so status codes and
 * bodies stay yoga's; anything unusual is handed to yoga whole.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { useGraphQlJit } from '@envelop/graphql-jit';
import { costLimitPlugin } from '@escape.tech/graphql-armor-cost-limit';
import { maxAliasesPlugin } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthPlugin } from '@escape.tech/graphql-armor-max-depth';
import { maxTokensPlugin } from '@escape.tech/graphql-armor-max-tokens';
import { getOperationAST, Kind, type DocumentNode, type ExecutionResult, type GraphQLError, type GraphQLSchema } from 'graphql';
import { createYoga, isAsyncIterable, isPromise, processRegularResult, type YogaServerInstance } from 'graphql-yoga';
import { rawHeader } from '../src/http/raw-headers.ts';
import { PayloadTooLargeError, readBody } from '../src/http/read-body.ts';
import type { Logger } from '../src/kernel/logger.ts';
import type { RateLimiter } from '../src/kernel/rate-limiter.ts';
import type { Services } from '../src/services.ts';
import type { GraphQLContext } from '../schema/context.ts';
import { maskDomainErrors } from '../schema/errors.ts';
import { createCompiledOperations, executionPluginCount, REPRODUCED_EXECUTION_PLUGINS, type CompiledOperation } from './compiled-operations.ts';
import { createContextFactory } from './context.ts';
import { createDocumentCache } from './document-cache.ts';
import { rateLimitResult, useRateLimit } from './use-rate-limit.ts';

export interface ServerContext {
  clientAddress: string;
}

export interface GraphQLDoor {
  yoga: YogaServerInstance<ServerContext, GraphQLContext>;
  /** Fetch handler (in-memory gateway, tests). */
  fetch(request: Request, serverContext: ServerContext): Promise<Response>;
  /** False when a plugin hooks execution that the compiled path does not reproduce: envelop then runs every request. */
  readonly compiledPathOn: boolean;
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
  now: () => number;
}

export const GRAPHQL_PATH = '/graphql';

export function createGraphQLDoor(deps: GraphQLDoorDeps): GraphQLDoor {
  const createContext = createContextFactory(deps);
  const documents = createDocumentCache();
  const compiled = createCompiledOperations(deps.schema);
  const yoga = createYoga<ServerContext, GraphQLContext>({
    schema: deps.schema,
    graphqlEndpoint: GRAPHQL_PATH,
    landingPage: false,
    graphiql: { title: 'Sleeve Gateway', defaultQuery: '{\n  sleeveOptions {\n    sizes\n    fonts\n    threads\n    charLimit\n  }\n}\n' },
    // GraphiQL with its assets inside the page (no CDN: the event's network may have no internet). The bundle is
    // about 9 MB of JavaScript, so it is loaded the first time someone opens GraphiQL, not at start.
    renderGraphiQL: async (options) => (await import('@graphql-yoga/render-graphiql')).renderGraphiQL(options),
    maskedErrors: { maskError: maskDomainErrors },
    logging: {
      debug: (...args) => deps.logger.debug('graphql', { detail: args.map(String).join(' ') }),
      info: (...args) => deps.logger.info('graphql', { detail: args.map(String).join(' ') }),
      warn: (...args) => deps.logger.warn('graphql', { detail: args.map(String).join(' ') }),
      error: (...args) => deps.logger.error('graphql', { detail: args.map(String).join(' ') }),
    },
    // HTTP: the Authorization header. WebSocket: connectionParams.authorization (there is no request per operation).
    context: (initial) =>
      createContext({
        authorization: authorizationOf(initial as { request?: Request; connectionParams?: Record<string, unknown> }),
        clientAddress: initial.clientAddress,
      }),
    // Our own document cache, keyed on the document alone (see use-document-cache.ts).
    parserAndValidationCache: false,
    plugins: [
      documents.plugin,
      maxTokensPlugin({ n: 2000 }),
      maxDepthPlugin({ n: 12, ignoreIntrospection: true }),
      maxAliasesPlugin({ n: 20 }),
      costLimitPlugin({ maxCost: 5000 }),
      // @envelop/graphql-jit caches compiled queries by document alone, not by operation name: a document with
      // two operations would run the first one compiled whatever name is asked for. Such documents (GraphiQL
      // tabs, mostly) and subscriptions (whose root-field arguments jit drops) run on graphql-js instead.
      useGraphQlJit({}, { enableIf: (args) => jitFits(args.document) }),
      useRateLimit(deps.limiter),
    ],
  });
  // `plugins` is yoga's resolved list (its own and ours); protected in its typings, so read through a cast.
  const pluginList = (yoga as unknown as { plugins: readonly unknown[] }).plugins;
  const compiledPathOn = executionPluginCount(pluginList) === REPRODUCED_EXECUTION_PLUGINS;
  if (!compiledPathOn) deps.logger.warn('graphql: a plugin hooks execution that the compiled path skips; every request runs through envelop');

  async function handleNode(req: IncomingMessage, res: ServerResponse, serverContext: ServerContext): Promise<void> {
    if (Number(rawHeader(req, 'content-length') ?? 0) > deps.maxBodyBytes) {
      req.resume();
      send(res, tooLarge(acceptedMediaType(rawHeader(req, 'accept'))));
      return;
    }
    if (!isPlainJsonPost(req)) {
      await yoga.handle(req, res, serverContext);
      return;
    }
    let raw: string;
    try {
      raw = await readBody(req, deps.maxBodyBytes);
    } catch (error) {
      if (!(error instanceof PayloadTooLargeError)) throw error;
      send(res, tooLarge(acceptedMediaType(rawHeader(req, 'accept'))));
      return;
    }
    send(res, await answerJson(req, raw, serverContext));
  }

  /**
   * The fast path: yoga's own envelop pipeline (its plugins, caches, context, jit and masking) for an ordinary
   * query or mutation. Anything else — a body that is not one plain set of params, a syntax or validation
   * error, a subscription, an ambiguous operation — goes through yoga's full pipeline, which answers it with
   * yoga's own codes and bodies. Nothing has executed by the time a request is handed over.
   */
  async function answerJson(req: IncomingMessage, raw: string, serverContext: ServerContext): Promise<Answer> {
    const params = plainParams(raw);
    if (!params) return replayThroughYoga(req, raw, serverContext);
    const known = documents.valid(params.query);
    const plan = compiledPathOn && known && compiled.get(known, params.operationName);
    if (plan) return runCompiled(req, known, plan, params, serverContext);
    const request = new LightRequest(req) as unknown as Request;
    // A literal, never `{ ...serverContext, … }`: envelop adds fields to this object all through the request,
    // and a spread-built object ends up with a shape V8 handles a third slower (measured).
    const enveloped = yoga.getEnveloped({ clientAddress: serverContext.clientAddress, request, params } as never);
    // A document parsed and validated before (with every parse and validate plugin) is taken from the cache.
    let document: DocumentNode;
    if (known) {
      document = known;
    } else {
      try {
        document = enveloped.parse(params.query);
        // Invalid, or refused by a query-limit rule (those throw): yoga answers it in its own words.
        if (enveloped.validate(enveloped.schema, document).length > 0) return replayThroughYoga(req, raw, serverContext);
      } catch {
        return replayThroughYoga(req, raw, serverContext);
      }
    }
    const operation = getOperationAST(document, params.operationName);
    if (!operation || operation.operation === 'subscription') return replayThroughYoga(req, raw, serverContext);
    const accepted = acceptedMediaType(rawHeader(req, 'accept'));
    let result: ExecutionResult & { stringify?: (r: unknown) => string };
    try {
      // Awaited only when a promise: a synchronous context and a synchronous jit result skip two microtask turns.
      const built = enveloped.contextFactory();
      const contextValue = isPromise(built) ? await built : built;
      const executed = enveloped.execute({
        schema: enveloped.schema,
        document,
        contextValue,
        variableValues: params.variables,
        operationName: params.operationName,
      });
      result = (isPromise(executed) ? await executed : executed) as typeof result;
    } catch (error) {
      // Never replayed: a mutation may have run. Masked like every unexpected error.
      deps.logger.error('graphql execution failed', { error });
      result = { errors: [maskDomainErrors(error, 'Unexpected error.') as GraphQLError] };
    }
    if (isAsyncIterable(result)) {
      // Incremental delivery is not enabled in this schema; if it ever is, it belongs to yoga's own path.
      throw new Error('an incremental result reached the JSON fast path');
    }
    if (!result.errors?.length && !result.extensions) {
      return { status: 200, headers: { 'content-type': `${accepted}; charset=utf-8` }, body: (result.stringify ?? JSON.stringify)(result) };
    }
    return fromResponse(await processRegularResult(result as never, yoga.fetchAPI, accepted));
  }

  /**
   * A known document's compiled plan, run without envelop's hook rounds; what those hooks do here is done in
   * place: the context from the same factory, the shared rate limits, yoga's own masking of unexpected errors.
   */
  async function runCompiled(req: IncomingMessage, document: DocumentNode, plan: CompiledOperation, params: PlainParams, serverContext: ServerContext): Promise<Answer> {
    const accepted = acceptedMediaType(rawHeader(req, 'accept'));
    const client = serverContext.clientAddress;
    let result = rateLimitResult(deps.limiter, document, params.operationName, client);
    if (!result) {
      const contextValue = createContext({ authorization: rawHeader(req, 'authorization') ?? null, clientAddress: client });
      try {
        const executed = plan.query(undefined, contextValue, params.variables ?? {});
        result = isPromise(executed) ? await executed : executed;
      } catch (error) {
        deps.logger.error('graphql execution failed', { error });
        result = { errors: [maskDomainErrors(error, 'Unexpected error.') as GraphQLError] };
      }
    }
    if (!result.errors?.length && !result.extensions) {
      return { status: 200, headers: { 'content-type': `${accepted}; charset=utf-8` }, body: plan.stringify(result) };
    }
    const masked = result.errors ? { ...result, errors: result.errors.map(maskAsYogaDoes) } : result;
    return fromResponse(await processRegularResult(masked as never, yoga.fetchAPI, accepted));
  }

  /** yoga's masking (maskedErrors.maskError with its default message), and its log line for what it hid. */
  function maskAsYogaDoes(error: GraphQLError): GraphQLError {
    const masked = maskDomainErrors(error, 'Unexpected error.') as GraphQLError;
    if (masked !== error) deps.logger.error('graphql', { detail: String(error) });
    return masked;
  }

  /** The same request, as a Fetch Request through yoga's full pipeline: its answers, codes and bodies. */
  async function replayThroughYoga(req: IncomingMessage, raw: string, serverContext: ServerContext): Promise<Answer> {
    const headers = new Headers();
    for (const [key, value] of Object.entries(req.headers)) {
      if (value !== undefined) headers.set(key, Array.isArray(value) ? value.join(', ') : value);
    }
    const request = new Request(`http://localhost${req.url ?? GRAPHQL_PATH}`, { method: 'POST', headers, body: raw });
    return fromResponse(await yoga.fetch(request, serverContext));
  }

  return {
    yoga,
    compiledPathOn,
    async fetch(request, serverContext) {
      if (Number(request.headers.get('content-length') ?? 0) > deps.maxBodyBytes) {
        const answer = tooLarge(acceptedMediaType(request.headers.get('accept') ?? undefined));
        return new Response(answer.body, { status: answer.status, headers: answer.headers });
      }
      return yoga.fetch(request, serverContext);
    },
    handleNode,
  };
}

function authorizationOf(initial: { request?: Request; connectionParams?: Record<string, unknown> }): string | null {
  const fromParams = initial.connectionParams?.authorization ?? initial.connectionParams?.Authorization;
  if (typeof fromParams === 'string') return fromParams;
  return initial.request?.headers.get('authorization') ?? null;
}

const operationCounts = new WeakMap<DocumentNode, boolean>();

/** One operation, and not a subscription (graphql-jit loses the arguments of subscription root fields). */
function jitFits(document: DocumentNode): boolean {
  let fits = operationCounts.get(document);
  if (fits === undefined) {
    const operations = document.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION);
    fits = operations.length === 1 && operations[0]!.operation !== 'subscription';
    operationCounts.set(document, fits);
  }
  return fits;
}

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

function send(res: ServerResponse, answer: Answer): void {
  // An explicit length: without it node falls back to chunked encoding, several writes per response.
  answer.headers['content-length'] = String(Buffer.byteLength(answer.body));
  res.writeHead(answer.status, answer.headers);
  res.end(answer.body);
}

function tooLarge(accepted: string): Answer {
  return {
    status: 413,
    headers: { 'content-type': `${accepted}; charset=utf-8` },
    body: JSON.stringify({ errors: [{ message: 'Request body is too large.', extensions: { code: 'PAYLOAD_TOO_LARGE' } }] }),
  };
}

async function fromResponse(response: Response): Promise<Answer> {
  const headers: Record<string, string> = {};
  for (const [key, value] of response.headers) headers[key] = value;
  return { status: response.status, headers, body: await response.text() };
}

interface PlainParams {
  query: string;
  variables?: Record<string, unknown>;
  operationName?: string;
}

const PARAM_KEYS = new Set(['query', 'variables', 'operationName', 'extensions']);

/**
 * The GraphQL-over-HTTP params of a body when they are plain — an object with a string `query` and only the
 * standard keys, well typed — or undefined, so that yoga itself answers anything unusual (and says what is wrong).
 */
function plainParams(raw: string): PlainParams | undefined {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const params = value as Record<string, unknown>;
  for (const key in params) if (!PARAM_KEYS.has(key)) return undefined;
  const { query, variables, operationName, extensions } = params;
  if (typeof query !== 'string') return undefined;
  if (variables != null && (typeof variables !== 'object' || Array.isArray(variables))) return undefined;
  if (operationName != null && typeof operationName !== 'string') return undefined;
  if (extensions != null && (typeof extensions !== 'object' || Array.isArray(extensions))) return undefined;
  return {
    query,
    ...(variables != null ? { variables: variables as Record<string, unknown> } : {}),
    ...(operationName != null ? { operationName } : {}),
  };
}

/** POST application/json to /graphql, answered as JSON (not SSE, not multipart, not a batch of files). */
function isPlainJsonPost(req: IncomingMessage): boolean {
  if (req.method !== 'POST') return false;
  const type = rawHeader(req, 'content-type');
  if (!type || !type.toLowerCase().startsWith('application/json')) return false;
  const accept = rawHeader(req, 'accept');
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

/**
 * A light stand-in for the Fetch Request on the fast path: the context factory and yoga's plugins read only
 * `method`, `url` and `headers.get`. Classes rather than closures (see rest-compat/node-adapter.ts).
 */
class RawHeaders {
  constructor(private readonly req: IncomingMessage) {}
  get(name: string): string | null {
    return rawHeader(this.req, name.toLowerCase()) ?? null;
  }
  has(name: string): boolean {
    return rawHeader(this.req, name.toLowerCase()) !== undefined;
  }
}

class LightRequest {
  readonly method = 'POST';
  readonly headers: RawHeaders;
  constructor(private readonly req: IncomingMessage) {
    this.headers = new RawHeaders(req);
  }
  get url(): string {
    return `http://localhost${this.req.url ?? GRAPHQL_PATH}`;
  }
}
