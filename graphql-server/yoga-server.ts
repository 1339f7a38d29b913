/**
 * yoga's configuration: graphql-yoga over the Pothos schema, everything cross-cutting a plugin — the document cache,
 * GraphQL Armor's query limits, graphql-jit, the shared rate limits, the JSON media type — and yoga's masking of
 * unexpected errors (maskDomainErrors). Every yoga feature a client can use stays: GET, GraphiQL, SSE, batching
 * refusal, the body-size limit (MAX_BODY_BYTES, for bodies that come without a content-length too). CORS is the
 * gateway's own policy (use-edge-headers.ts), and a browser's cross-site simple request is refused
 * (use-csrf-prevention.ts), docs/edge.md. Trusted documents and APQ (use-trusted-documents.ts) and, with
 * GRAPHQL_PRODUCTION, no introspection for strangers and no suggestions (use-production-hardening.ts):
 * docs/graphql.md#trusted-documents and #production.
 */
import { useGraphQlJit } from '@envelop/graphql-jit';
import { maxAliasesPlugin } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthPlugin } from '@escape.tech/graphql-armor-max-depth';
import { maxTokensPlugin } from '@escape.tech/graphql-armor-max-tokens';
import { GraphQLError, Kind, type DocumentNode, type GraphQLSchema, type ValidationContext } from 'graphql';
import { createYoga, isAsyncIterable, processRegularResult, type Plugin, type YogaServerInstance } from 'graphql-yoga';
import type { CorsPolicy } from '../src/kernel/cors.ts';
import type { Logger } from '../src/kernel/logger.ts';
import type { RateLimiter } from '../src/kernel/rate-limiter.ts';
import type { GraphQLContext } from '../schema/context.ts';
import { maskDomainErrors } from '../schema/errors.ts';
import { authorizationOf, type ContextFactory } from './context-factory.ts';
import type { DocumentCache } from './document-cache.ts';
import { renderGraphiQLPage } from './graphiql-page.ts';
import { GRAPHQL_RESPONSE_TYPE, jsonMediaType } from './http-messages.ts';
import { withRequestErrorStatus } from './request-errors.ts';
import { useCsrfPrevention } from './use-csrf-prevention.ts';
import { useCoercionErrors } from './coercion-errors.ts';
import { useRequestParsing } from './use-request-parsing.ts';
import { useTextLiterals } from './text-literals.ts';
import { MAX_OPERATION_COST, useOperationCost } from './operation-cost.ts';
import { useEdgeHeaders } from './use-edge-headers.ts';
import { useJsonDepthLimit } from './use-json-depth.ts';
import { useMultipartSubscriptions } from './multipart-subscriptions.ts';
import { useRateLimit } from './use-rate-limit.ts';
import type { StreamShutdown } from './stream-shutdown.ts';
import type { TrustedDocuments } from './trusted-documents.ts';
import { useProductionHardening, type ProductionHardening } from './use-production-hardening.ts';
import { useTrustedDocuments } from './use-trusted-documents.ts';
import { useAbortableSubscriptions, type AbortableContext } from './use-abortable-subscriptions.ts';
import { useMetrics } from './use-metrics.ts';
import { yogaLogging } from './yoga-logging.ts';
import type { GatewayMetrics } from '../src/operations/metrics.ts';
import { useTracing } from './use-tracing.ts';
import { useCompiledSubscriptions } from './use-compiled-subscriptions.ts';
import { useStreamBudget } from './use-stream-budget.ts';
import type { AddressBudget } from '../src/kernel/address-budget.ts';
import { tracingOn } from '../src/operations/tracing.ts';

export const GRAPHQL_PATH = '/graphql';

/** What each transport passes yoga besides the request: the client address, for the shared rate limits. */
export interface ServerContext extends AbortableContext {
  clientAddress: string;
  /** The request's id (docs/operations.md#request-logs): echoed in x-request-id, named on the lines it causes. */
  requestId?: string;
}

export type GraphQLYoga = YogaServerInstance<ServerContext, GraphQLContext>;

export interface YogaServerDeps {
  schema: GraphQLSchema;
  limiter: RateLimiter;
  logger: Logger;
  maxBodyBytes: number;
  createContext: ContextFactory;
  documents: DocumentCache;
  cors: CorsPolicy;
  /** Ends SSE streams cleanly on shutdown (docs/edge.md#shutdown-of-streams). */
  streams: StreamShutdown;
  /** GRAPHQL_TRUSTED_DOCUMENTS: the manifest, APQ, and who may send text (docs/graphql.md#trusted-documents). */
  trusted: TrustedDocuments;
  /** GRAPHQL_PRODUCTION: introspection for staff only, no suggestions (docs/graphql.md#production). */
  hardening: ProductionHardening;
  /** graphql-sse's single connection mode (single-connection-mode.ts): PUT, DELETE and requests with a stream token. */
  singleConnection: Plugin<Record<string, unknown>, ServerContext>;
  /** Operations and open subscriptions, counted (docs/operations.md#metrics); NO_METRICS counts nothing. */
  metrics: GatewayMetrics;
  /** MAX_STREAMS_PER_ADDRESS: subscriptions running at once per client address (address-budget.ts). */
  streamBudget: AddressBudget;
}

export function createYogaServer(deps: YogaServerDeps): GraphQLYoga {
  const { logger } = deps;
  return createYoga<ServerContext, GraphQLContext>({
    schema: deps.schema,
    graphqlEndpoint: GRAPHQL_PATH,
    landingPage: false,
    graphiql: { title: 'Sleeve Gateway', defaultQuery: '{\n  sleeveOptions {\n    sizes\n    fonts\n    threads\n    charLimit\n  }\n}\n' },
    // GraphiQL with its assets inside the page (no CDN: the event's network may have no internet), loaded the
    // first time someone opens it, with a CSP that allows its one inline script by hash (graphiql-page.ts).
    renderGraphiQL: renderGraphiQLPage,
    // The gateway's own CORS policy instead (use-edge-headers.ts says why), docs/edge.md#cors.
    cors: false,
    maskedErrors: { maskError: maskDomainErrors },
    maxRequestBodySize: deps.maxBodyBytes,
    // Errors as their fields, never their printed form, which quotes the document (yoga-logging.ts).
    logging: yogaLogging(logger),
    context: (initial) => deps.createContext(authorizationOf(initial), initial.clientAddress),
    // Our own document cache, keyed on the document alone (see document-cache.ts).
    parserAndValidationCache: false,
    plugins: [
      // First: it must see a result that useRateLimit stops execution with (use-metrics.ts). Always listed, so the
      // fast JSON path's plugin count does not depend on METRICS.
      useMetrics(deps.metrics),
      // docs/operations.md#tracing: only while tracing is on. It hooks execution, so the fast JSON path's guard
      // counts it and steps aside: every operation then runs, and is traced, on this one pipeline. Before the rate
      // limit, which stops execution: hooks after it never ran, and a refused operation's span had no name or status.
      ...(tracingOn() ? [useTracing] : []),
      // Second: a subscription past its address's bound is refused before any other work (use-stream-budget.ts).
      useStreamBudget(deps.streamBudget),
      useAbortableSubscriptions,
      useEdgeHeaders(deps.cors),
      useCsrfPrevention,
      deps.singleConnection,
      useRequestParsing,
      // Before the document cache: a hash becomes its document's text here (onParams), and the cache keys on text.
      ...useTrustedDocuments(deps.trusted),
      deps.documents.plugin,
      maxTokensPlugin({ n: 2000 }),
      // Fields nest, fragments do not: a client's fragments (colocated, spread in chains) add no level.
      maxDepthPlugin({ n: 12, ignoreIntrospection: true, flattenFragments: true, ...reportedAs('QUERY_TOO_DEEP') }),
      // Aliases of __typename count too (GraphQL Armor lets them pass by default: `{ a1: __typename … a9999: … }`
      // is cheap to send and costs a field each to answer).
      maxAliasesPlugin({ n: 20, allowList: [], ...reportedAs('TOO_MANY_ALIASES') }),
      // A fragment is no level of nesting: spread or inline, it costs what its fields would cost written out
      // (operation-cost.ts says why this is not Armor's cost plugin).
      useOperationCost(MAX_OPERATION_COST),
      useTextLiterals,
      // @envelop/graphql-jit caches compiled queries by document alone, not by operation name: a document with
      // two operations would run the first one compiled whatever name is asked for. Such documents (GraphiQL
      // tabs, mostly) and subscriptions (whose root-field arguments jit drops) run on graphql-js instead.
      useGraphQlJit({}, { enableIf: (args) => jitFits(args.document) }),
      // graphql-js's words for a variable that fails to coerce, not jit's (coercion-errors.ts).
      useCoercionErrors,
      // Subscriptions' events run on the same compiled plans, their source stream on graphql-js
      // (use-compiled-subscriptions.ts: the live path's per-tick work).
      useCompiledSubscriptions,
      useRateLimit(deps.limiter),
      useJsonMediaType,
      // Apollo Client's HttpLink asks for a subscription in multipart/mixed: yoga answers that with a 406.
      useMultipartSubscriptions(logger),
      useJsonDepthLimit,
      // After the document cache, which keeps the plain validation result; this one adds per caller.
      useProductionHardening(deps.hardening),
      deps.streams.plugin,
    ],
  });
}

/**
 * GraphQL Armor's refusal as a validation error with a code, not thrown: thrown, it reached the client as "Syntax
 * Error: Query depth limit of 12 exceeded…" with no code, and ended validation before its other rules spoke.
 */
function reportedAs(code: string): { propagateOnRejection: false; onReject: Array<(context: ValidationContext | null, error: GraphQLError) => void> } {
  return {
    propagateOnRejection: false,
    onReject: [(context, error) => context?.reportError(new GraphQLError(error.message.replace(/^Syntax Error: /u, ''), { extensions: { code } }))],
  };
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

/**
 * A client that names neither JSON type (no Accept header, or only wildcards such as `application/*`) gets
 * application/graphql-response+json, GraphQL over HTTP's media type, whose status codes say what went wrong;
 * yoga alone would pick application/json there. Only `application/json` asked for by name gets application/json.
 * Runs after yoga's own result processors, so it only ever narrows yoga's choice between its two JSON types. A
 * request error of execution gets its status here too (request-errors.ts), which the processor then reads.
 */
const useJsonMediaType: Plugin = {
  onResultProcess({ request, result, setResult, setResultProcessor }) {
    if (isAsyncIterable(result)) return;
    const marked = Array.isArray(result) ? result : withRequestErrorStatus(result);
    if (marked !== result) setResult(marked);
    if (jsonMediaType(request.headers.get('accept')) === GRAPHQL_RESPONSE_TYPE) setResultProcessor(processRegularResult, GRAPHQL_RESPONSE_TYPE);
  },
};
