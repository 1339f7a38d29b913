/**
 * The fast JSON path: the one path beside yoga's own. A plain JSON POST of a document yoga has already parsed and
 * validated runs that operation's graphql-jit plan directly — no Fetch Request or Response, no envelop hook rounds,
 * which together cost more than a small query (the envelop rounds alone were about 3.7 µs of a small query's ~6 µs,
 * measured). Everything else goes through yoga's pipeline unchanged (node-handler.ts), the first request of each
 * document included: that one fills the cache this path reads.
 *
 * What it reproduces of yoga, step by step:
 *  - Request parsing (yoga's POST JSON parser, useCheckGraphQLQueryParams): only a body that is one object of
 *    `query` (a string), `variables` and `extensions` (objects) and `operationName` (a string), or the same with a
 *    persisted query's hash (extensions.persistedQuery) in place of `query`. Anything else → yoga.
 *  - Trusted documents (use-trusted-documents.ts: our APQ registration and yoga's persisted-operations plugin,
 *    docs/graphql.md#trusted-documents): a hash is read from the same TrustedDocuments that plugin reads; an
 *    unknown hash → yoga, which answers PersistedQueryNotFound. Text with a hash (APQ's registration) → yoga.
 *    Text from a caller who may not send text (GRAPHQL_TRUSTED_DOCUMENTS=only, no staff token) → yoga, which
 *    refuses it: the document cache below may hold that text from a staff request, so this check comes first.
 *  - The JSON depth limit (useJsonDepthLimit, docs/edge.md#bounds): a body nested deeper than 64 levels → yoga,
 *    whose plugin answers the 400.
 *  - The body limit: the handler reads the body under MAX_BODY_BYTES, yoga's maxRequestBodySize too.
 *  - Parse and validate, with GraphQL Armor's limits: only a document yoga has parsed and found valid before, from
 *    the cache its parse and validate hooks read (document-cache.ts).
 *  - Production (use-production-hardening.ts, GRAPHQL_PRODUCTION): a document the cache holds as valid but whose
 *    introspection this caller may not read → yoga, which refuses it; suggestions are cut from execution errors
 *    as its onExecutionResult does (after masking, as there).
 *  - The operation: the document's only one, a query or a mutation, named by its own name or not at all (the jit
 *    plugin's rule, jitFits). Anything else → yoga, which words the error.
 *  - The context: the factory yoga's `context` option calls, with the Authorization header and the client address
 *    (yoga also puts `request` and `params` in it; no resolver reads them).
 *  - The cost of an operation sized by a variable (`first: $n`), reckoned with the request's values as
 *    useOperationCost's onExecute does (operation-cost.ts).
 *  - The shared rate limit: useRateLimit's own `chargesOf` (the fields executed, fragments resolved) and
 *    `rateLimitResult`, before execution; over it, nothing runs (docs/edge.md#rate-limits-at-a-venue).
 *  - Execution: graphql-jit's `compileQuery` with the options useGraphQlJit is given (none), once per document.
 *    A query that reads only snapshots the services hold is answered with the bytes it made last time while they
 *    stay the same (answer-cache.ts); yoga's path always runs it.
 *  - Masking: yoga's own mask (maskDomainErrors, "Unexpected error.", yoga's log line for what it hid) over each
 *    error of a result, as envelop's useMaskedErrors does; a thrown error as yoga's handleError does.
 *  - Metrics (use-metrics.ts): the operation counted by its name, type and outcome once the result is known, a
 *    rate-limit refusal included, as that plugin's onExecuteDone does (docs/operations.md#metrics).
 *  - The request id (docs/operations.md#request-logs): a mutation runs inside the request scope, as yoga's path
 *    does (node-handler.ts); a query outside it, its masked errors logged with the id named.
 *  - The media type: yoga's negotiation with useJsonMediaType (http-messages.ts). None acceptable (406) → yoga.
 *  - Status codes and headers: 200 and the content type without errors; otherwise yoga's own processRegularResult
 *    (the status the errors carry: 429 with Retry-After, the 4xx of graphql-response+json, 500).
 *  - CORS (use-edge-headers.ts, in place of yoga's useCORS): the headers of the same CorsPolicy (CORS_ORIGINS,
 *    docs/edge.md#cors) for a request with an Origin. A request with access-control-request-* headers → yoga.
 *  - No cross-site writes (use-csrf-prevention.ts): it refuses only form, multipart and text/plain bodies; this path
 *    takes only `application/json` (node-handler.ts), so there is nothing to refuse here.
 *
 * The guard: a plugin added to yoga that hooks any of these steps would be skipped here. At start the path counts
 * the plugins that hook execution and those that hook the request around it; unless both counts are the ones below
 * (and yoga's masking is where it is read), the path stays off and yoga runs every request — and
 * test/graphql/fast-path.test.ts fails, to say this file needs a look.
 */
import { GraphQLError, type DocumentNode, type ExecutionResult, type GraphQLSchema } from 'graphql';
import { createGraphQLError, isPromise, processRegularResult } from 'graphql-yoga';
import type { RateDecision, RateLimiter } from '../src/kernel/rate-limiter.ts';
import type { CorsPolicy } from '../src/kernel/cors.ts';
import type { ContextFactory } from './context-factory.ts';
import type { DocumentCache } from './document-cache.ts';
import { CONTENT_TYPE, jsonMediaType, type Answer, type JsonMediaType, type RequestHeads } from './http-messages.ts';
import { MAX_OPERATION_COST, variableCostError } from './operation-cost.ts';
import { chargesOf, rateLimitResult, type RateCharge } from './use-rate-limit.ts';
import type { GraphQLYoga } from './yoga-server.ts';
import { compile, Decided, executionPluginCount, plainParams, requestPluginCount, yogaInternals, type CompiledOperation, type PlainParams, type YogaMasking } from './fast-path-parts.ts';
import { withRequestErrorStatus } from './request-errors.ts';
import { withCoercionErrors } from './coercion-errors.ts';
import { persistedHashOf, type TrustedDocuments } from './trusted-documents.ts';
import type { ProductionHardening } from './use-production-hardening.ts';
import type { GatewayMetrics } from '../src/operations/metrics.ts';
import type { Services } from '../src/services.ts';
import { runInRequestScope, withRequestId } from '../src/kernel/logger.ts';

/**
 * Plugins hooking execution that the path does in place: yoga's engine (execute), the `context` option, graphql-jit,
 * graphql-js's coercion errors (useCoercionErrors), the shared rate limit, yoga's masking, the metrics (useMetrics,
 * listed whether METRICS is on or off), and the cost of an operation sized by a variable (useOperationCost).
 */
export const REPRODUCED_EXECUTION_PLUGINS = 8;

/**
 * Plugins hooking the request around execution, each done in place or left to yoga by `answer`'s checks: yoga's
 * engine (parse, validate), health check, CORS (useEdgeHeaders; yoga's own is off), GraphiQL, its five request
 * parsers, its result processors, the document cache, the four query limits (the cost one ours), the body limit,
 * batching, params check, unhandled route, method check, no mutation over GET, validation errors' status,
 * useJsonMediaType, useJsonDepthLimit, useCsrfPrevention, useRequestParsing (it refuses only what this path hands
 * to yoga), useSingleConnectionRefusal (a PUT, never a POST), the APQ registration, the persisted-operations plugin
 * useProductionHardening, the end of streams on shutdown and the multipart subscriptions (streams only, which this
 * path never answers), and the rule on string literals (a validation rule: a document it refuses never reaches here).
 */
export const REPRODUCED_REQUEST_PLUGINS = 33;

export interface FastPathDeps {
  schema: GraphQLSchema;
  limiter: RateLimiter;
  createContext: ContextFactory;
  documents: DocumentCache;
  cors: CorsPolicy;
  trusted: TrustedDocuments;
  hardening: ProductionHardening;
  /** Where the operation is counted (useMetrics' twin; docs/operations.md#metrics). */
  metrics: GatewayMetrics;
  /** LOG_REQUEST_SCOPE on (and something is logged): mutations run inside the request scope. */
  scoped?: boolean;
  /** Where a kept answer's snapshots are read (answer-cache.ts). */
  services: Services;
}

/** A class, not closures: under tsx (esbuild keepNames) every closure made per request costs a `__name` call. */
export class FastJsonPath {
  /** False when a plugin hooks a step this path skips: yoga then runs every request. */
  readonly on: boolean;
  private readonly masking: YogaMasking;
  // null: compiled once and found unfit (several operations, a subscription, a compile error).
  private readonly plans = new WeakMap<DocumentNode, CompiledOperation | null>();

  constructor(
    private readonly yoga: GraphQLYoga,
    private readonly deps: FastPathDeps,
  ) {
    const { plugins, masking } = yogaInternals(yoga);
    this.masking = masking ?? { maskError: (error) => error as Error, errorMessage: '' };
    this.on =
      masking !== undefined &&
      executionPluginCount(plugins) === REPRODUCED_EXECUTION_PLUGINS &&
      requestPluginCount(plugins) === REPRODUCED_REQUEST_PLUGINS;
    this.maskError = this.maskError.bind(this);
    this.thrown = this.thrown.bind(this);
    this.masked = this.masked.bind(this);
    this.runAsync = this.runAsync.bind(this);
  }

  /** The answer to a plain JSON POST of this body, or undefined when yoga must answer it (nothing has run then). */
  answer(heads: RequestHeads, raw: string, client: string, requestId?: string): Answer | Promise<Answer> | undefined {
    if (heads.corsRequest) return undefined;
    const params = plainParams(raw);
    if (!params) return undefined;
    const mediaType = jsonMediaType(heads.accept);
    if (!mediaType) return undefined;
    const source = this.source(params, heads.authorization);
    if (source === undefined) return undefined;
    const document = this.deps.documents.valid(source);
    if (!document) return undefined;
    if (this.deps.hardening.on && this.deps.hardening.introspectionRefusal(this.deps.schema, document, heads.authorization).length > 0) return undefined;
    const plan = this.plan(document, params.operationName ?? undefined);
    if (!plan) return undefined;
    if (requestId !== undefined && plan.type === 'mutation' && this.deps.scoped) {
      return runInRequestScope(requestId, this.runAsync, plan, document, params, heads, mediaType, client, requestId);
    }
    return this.run(plan, document, params, heads, mediaType, client, requestId);
  }

  /** The document's text as the trusted-documents plugins would settle it, or undefined to leave it to yoga. */
  private source(params: PlainParams, authorization: string | undefined): string | undefined {
    const { query, extensions } = params;
    const trusted = this.deps.trusted;
    if (typeof query === 'string' && query !== '') {
      if (extensions != null && persistedHashOf(extensions) !== undefined) return undefined;
      return trusted.allowsText(authorization) ? query : undefined;
    }
    const hash = persistedHashOf(extensions);
    return hash === undefined ? undefined : trusted.lookup(hash, authorization);
  }

  /**
   * Runs the plan. Synchronous as long as everything it calls is (the limiter counting in this process, resolvers
   * answering from memory): each promise hop was a measurable share of a small query. A promise otherwise.
   */
  private run(plan: CompiledOperation, document: DocumentNode, params: PlainParams, heads: RequestHeads, mediaType: JsonMediaType, client: string, requestId: string | undefined): Answer | Promise<Answer> {
    if (plan.sizedByVariables) {
      const tooCostly = variableCostError(document, params.operationName, params.variables, MAX_OPERATION_COST);
      if (tooCostly) return this.respond(plan, { errors: [tooCostly] }, heads, mediaType);
    }
    let charges = plan.charges;
    if (charges == null) {
      charges = chargesOf(this.deps.schema, document, params.operationName, params.variables);
      if (plan.charges === undefined) plan.charges = charges;
    }
    if (charges.length > 0) {
      const { takeNow } = this.deps.limiter;
      if (takeNow === undefined) return this.limitedRun(plan, charges, params, heads, mediaType, client, requestId);
      // rateLimitResult's order: each charge in turn, the first refusal ends it.
      for (const { group, subject } of charges) {
        const decision = takeNow(group, client, subject);
        if (!decision.allowed) return this.refused(decision, plan, { group, subject }, heads, mediaType, client);
      }
    }
    return this.execute(plan, params, heads, mediaType, client, requestId);
  }

  /** The plan run once the limit allowed it, or the answer it kept (answer-cache.ts). */
  private execute(plan: CompiledOperation, params: PlainParams, heads: RequestHeads, mediaType: JsonMediaType, client: string, requestId: string | undefined): Answer | Promise<Answer> {
    // A kept answer: while its snapshots are the same, nothing runs; else they are read before the plan runs.
    let madeFrom: object[] | undefined;
    if (plan.cache !== null) {
      const kept = plan.cache.kept(this.deps.services);
      if (kept !== undefined) return this.ok(plan, kept, heads, mediaType);
      madeFrom = plan.cache.snapshots(this.deps.services);
    }
    let result: ExecutionResult | Promise<ExecutionResult>;
    const contextValue = this.deps.createContext(heads.authorization, client);
    try {
      result = plan.query(undefined, contextValue, params.variables ?? {});
    } catch (error) {
      return this.respond(plan, { errors: [withRequestId(requestId, this.thrown, error)] }, heads, mediaType);
    }
    if (isPromise(result)) return this.settled(plan, result, heads, mediaType, requestId);
    if (result.data === undefined) result = withCoercionErrors(result, this.deps.schema, plan.document, plan.operationName, params.variables);
    if (madeFrom !== undefined && !result.errors?.length && !result.extensions) {
      const body = plan.stringify(result);
      plan.cache!.keep(madeFrom, body);
      return this.ok(plan, body, heads, mediaType);
    }
    return this.respond(plan, result.errors ? withRequestId(requestId, this.masked, result) : result, heads, mediaType);
  }

  /** `run` for runInRequestScope, which wants a promise. */
  private async runAsync(plan: CompiledOperation, document: DocumentNode, params: PlainParams, heads: RequestHeads, mediaType: JsonMediaType, client: string, requestId: string | undefined): Promise<Answer> {
    return this.run(plan, document, params, heads, mediaType, client, requestId);
  }

  /** The shared limiter (Redis) answers by promise: rateLimitResult waits for it, then the plan runs. */
  private async limitedRun(plan: CompiledOperation, charges: RateCharge[], params: PlainParams, heads: RequestHeads, mediaType: JsonMediaType, client: string, requestId: string | undefined): Promise<Answer> {
    const limited = await rateLimitResult(this.deps.limiter, charges, client);
    if (limited) return this.respond(plan, limited, heads, mediaType);
    return this.execute(plan, params, heads, mediaType, client, requestId);
  }

  private async refused(decision: RateDecision, plan: CompiledOperation, charge: RateCharge, heads: RequestHeads, mediaType: JsonMediaType, client: string): Promise<Answer> {
    const limited = await rateLimitResult(new Decided(decision) as unknown as RateLimiter, [charge], client);
    return this.respond(plan, limited!, heads, mediaType);
  }

  /** An execution that answered by promise (a resolver that waits). */
  private async settled(plan: CompiledOperation, pending: ExecutionResult | Promise<ExecutionResult>, heads: RequestHeads, mediaType: JsonMediaType, requestId: string | undefined): Promise<Answer> {
    let result: ExecutionResult;
    try {
      result = await pending;
    } catch (error) {
      return this.respond(plan, { errors: [withRequestId(requestId, this.thrown, error)] }, heads, mediaType);
    }
    // Masking logs what it hides: at once, with this request's id (it may run outside the request scope).
    return this.respond(plan, result.errors ? withRequestId(requestId, this.masked, result) : result, heads, mediaType);
  }

  /** The operation counted (useMetrics' onExecuteDone), and the answer. */
  private respond(plan: CompiledOperation, result: ExecutionResult, heads: RequestHeads, mediaType: JsonMediaType): Answer | Promise<Answer> {
    if (!result.errors?.length && !result.extensions) return this.ok(plan, plan.stringify(result), heads, mediaType);
    this.deps.metrics.operation(plan.operationName, plan.type, result.errors?.length ? 'error' : 'ok');
    return this.processed(result, heads, mediaType);
  }

  /** A result without errors or extensions, as JSON: counted, and answered 200. */
  private ok(plan: CompiledOperation, body: string, heads: RequestHeads, mediaType: JsonMediaType): Answer {
    this.deps.metrics.operation(plan.operationName, plan.type, 'ok');
    const headers: Record<string, string> = { 'content-type': CONTENT_TYPE[mediaType] };
    if (heads.origin !== undefined) Object.assign(headers, this.deps.cors.headers(heads.origin));
    return { status: 200, headers, body };
  }

  /** yoga's own processRegularResult for a result with errors or extensions: its status, headers and body. */
  private async processed(result: ExecutionResult, heads: RequestHeads, mediaType: JsonMediaType): Promise<Answer> {
    const response = processRegularResult(withRequestErrorStatus(result) as never, this.yoga.fetchAPI, mediaType) as Response;
    const headers: Record<string, string> = {};
    for (const [name, value] of response.headers) headers[name] = value;
    if (heads.origin !== undefined) Object.assign(headers, this.deps.cors.headers(heads.origin));
    return { status: response.status, headers, body: await response.text() };
  }

  private masked(result: ExecutionResult): ExecutionResult {
    const masked = { ...result, errors: result.errors!.map(this.maskError) };
    this.deps.hardening.hideSuggestions(masked.errors);
    return masked;
  }

  private maskError(error: GraphQLError): GraphQLError {
    return this.masking.maskError(error, this.masking.errorMessage) as GraphQLError;
  }

  /** yoga's handleError for a thrown error: masked (and logged), as a GraphQLError. Never retried: a mutation may have run. */
  private thrown(error: unknown): GraphQLError {
    const masked = this.masking.maskError(error, this.masking.errorMessage);
    if (masked !== error) this.yoga.logger.error(error);
    return masked instanceof GraphQLError ? masked : createGraphQLError(masked.message, { originalError: masked });
  }

  /** The plan of the document's only operation, compiled once, or undefined when it must go through yoga. */
  private plan(document: DocumentNode, operationName: string | undefined): CompiledOperation | undefined {
    let plan = this.plans.get(document);
    if (plan === undefined) {
      plan = compile(this.deps.schema, document);
      this.plans.set(document, plan);
    }
    // A name that is not the operation's is an error yoga words; leave it to yoga.
    if (!plan || (operationName !== undefined && plan.operationName !== operationName)) return undefined;
    return plan;
  }
}
