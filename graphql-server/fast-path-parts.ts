/**
 * The pieces of the fast JSON path (fast-path.ts) that hold no state of its own: the plain params of a body, an
 * operation's compiled plan, a refusal already decided, and what the guard reads of yoga (its plugins and masking).
 */
import { Kind, type DocumentNode, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import type { RateDecision } from '../src/kernel/rate-limiter.ts';
import { jsonTextTooDeep } from '../src/kernel/json-depth.ts';
import type { RateCharge } from './use-rate-limit.ts';
import type { GraphQLYoga } from './yoga-server.ts';
import { answerCacheFor, type AnswerCache } from './answer-cache.ts';
import { sizedByVariables } from './operation-cost.ts';
import { mayHoldForbiddenCharacter } from '../src/kernel/unicode-text.ts';

export interface PlainParams {
  /** Absent or empty: the document is named by extensions.persistedQuery's hash. */
  query?: string | null;
  extensions?: Record<string, unknown> | null;
  variables?: Record<string, unknown> | null;
  operationName?: string | null;
}

export interface CompiledOperation {
  /** The document it was compiled from (graphql-js words its coercion errors from it: coercion-errors.ts). */
  document: DocumentNode;
  operationName: string | undefined;
  type: 'query' | 'mutation';
  query: CompiledQuery['query'];
  stringify: CompiledQuery['stringify'];
  /**
   * The rate-limit charges of an operation without variables: the same on every request (its arguments and
   * directives are literals), so reckoned once; null when they depend on the request's variables.
   */
  charges: RateCharge[] | null | undefined;
  /** Whether a `first`/`last` is a variable: the cost is then reckoned again with each request's values (operation-cost.ts). */
  sizedByVariables: boolean;
  /** The answer kept while the snapshots it follows from stay the same (answer-cache.ts), or null: run every time. */
  cache: AnswerCache | null;
}

/** A refusal already decided (the limiter's `takeNow`), handed to rateLimitResult so that it words the 429. */
export class Decided {
  constructor(private readonly decision: RateDecision) {}
  take(): Promise<RateDecision> {
    return Promise.resolve(this.decision);
  }
}

export function compile(schema: GraphQLSchema, document: DocumentNode): CompiledOperation | null {
  const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  const operation = operations[0];
  if (operations.length !== 1 || operation!.operation === 'subscription') return null;
  const compiled = compileQuery(schema, document);
  if (!isCompiledQuery(compiled)) return null;
  const charges = operation!.variableDefinitions?.length ? null : undefined;
  return { document, operationName: operation!.name?.value, type: operation!.operation as 'query' | 'mutation', query: compiled.query, stringify: compiled.stringify, charges, sizedByVariables: sizedByVariables(document), cache: answerCacheFor(schema, operation!) };
}

const PARAM_KEYS = new Set(['query', 'variables', 'operationName', 'extensions']);

/**
 * The GraphQL-over-HTTP params of a body when they are plain — an object with a string `query` (or none, for a
 * persisted query's hash) and only the standard keys, well typed — or undefined, so that yoga itself answers
 * anything unusual (and says what is wrong). The parsed object itself, not a copy.
 */
export function plainParams(raw: string): PlainParams | undefined {
  // A lone surrogate's escape, even one in a pair: yoga's path refuses what holds a lone one (use-request-parsing.ts).
  if (jsonTextTooDeep(raw) || mayHoldForbiddenCharacter(raw)) return undefined;
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
  // No text: a persisted query's hash names the document (checked by the caller); any other type → yoga's words.
  if (query != null && typeof query !== 'string') return undefined;
  if (variables != null && (typeof variables !== 'object' || Array.isArray(variables))) return undefined;
  if (operationName != null && typeof operationName !== 'string') return undefined;
  if (extensions != null && (typeof extensions !== 'object' || Array.isArray(extensions))) return undefined;
  return params as unknown as PlainParams;
}

/** yoga's masking as yoga built it from `maskedErrors` (its wrapper logs what it hides, and masks an error once). */
export interface YogaMasking {
  maskError(error: unknown, message: string): Error;
  errorMessage: string;
}

/** yoga's resolved plugin list and masking: internal in its typings, so read through a cast. */
export function yogaInternals(yoga: GraphQLYoga): { plugins: readonly unknown[]; masking: YogaMasking | undefined } {
  const internal = yoga as unknown as { plugins?: readonly unknown[]; maskedErrorsOpts?: YogaMasking | null };
  const masking = internal.maskedErrorsOpts;
  return { plugins: internal.plugins ?? [], masking: typeof masking?.maskError === 'function' ? masking : undefined };
}

/** The plugin hooks the guard counts (fast-path.ts): those of execution, and those of the request around it. */
const EXECUTION_HOOKS = ['onExecute', 'onContextBuilding'];
const REQUEST_HOOKS = ['onRequest', 'onRequestParse', 'onParams', 'onParse', 'onValidate', 'onResultProcess', 'onExecutionResult', 'onResponse'];

/** yoga's list holds `false` for a plugin switched off by its options; those hook nothing. */
export function executionPluginCount(plugins: readonly unknown[]): number {
  return plugins.filter((p) => hooksAny(p, EXECUTION_HOOKS)).length;
}

export function requestPluginCount(plugins: readonly unknown[]): number {
  return plugins.filter((p) => hooksAny(p, REQUEST_HOOKS)).length;
}

function hooksAny(plugin: unknown, hooks: readonly string[]): boolean {
  return typeof plugin === 'object' && plugin !== null && hooks.some((hook) => hook in plugin);
}
