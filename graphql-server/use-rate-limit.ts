/**
 * useRateLimit: GraphQL fields that do the work of a rate-limited REST path count against the same limits, with the
 * same subjects (docs/edge.md#rate-limits-at-a-venue). Over a limit the operation is not executed: one RATE_LIMITED
 * error, HTTP 429 and Retry-After, as on REST (over Server-Sent Events, the stream's event: answeredAsEvents).
 *
 * The fields counted are the root fields the operation will actually execute, found as the executor finds them:
 * every alias of a field counts, fields inside inline fragments and named fragment spreads count, and a selection
 * switched off by @skip/@include does not (issue 15: `mutation { ...on Mutation { createOrder(…) } }` once went
 * uncounted, because only the document's top-level text was read).
 */
import type { Plugin } from '@envelop/core';
import {
  getArgumentValues,
  getDirectiveValues,
  getVariableValues,
  GraphQLIncludeDirective,
  GraphQLSkipDirective,
  Kind,
  visit,
  type DocumentNode,
  type ExecutionResult,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLObjectType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { createGraphQLError } from 'graphql-yoga';
import { mediaTypeOf } from '../src/kernel/media-type.ts';
import { emailSubject, orderSubject, type RateGroup, type RateLimiter } from '../src/kernel/rate-limiter.ts';
import type { GraphQLContext } from '../schema/context.ts';

/** Root fields, the REST route group whose work they do, and their subject (as the REST path takes it). */
const ROOT_FIELDS: Record<string, { group: RateGroup; subject?: (args: Record<string, unknown>) => string | undefined }> = {
  // sleeveOptions counts against no limit, as on REST (docs/edge.md#options-reads).
  order: { group: 'lookup', subject: (args) => orderSubject(args.orderNumber, args.payToken) },
  createOrder: { group: 'create', subject: (args) => emailSubject((args.input as Record<string, unknown> | undefined)?.email) },
  payOrder: { group: 'pay', subject: (args) => orderSubject(args.orderNumber, (args.input as Record<string, unknown> | undefined)?.t) },
};

export interface RateCharge {
  group: RateGroup;
  subject: string | undefined;
}

/** Per document: the operation by name ('' for the only one), and whether it names a counted field anywhere. */
interface DocumentFacts {
  operations: Map<string, OperationDefinitionNode>;
  fragments: Record<string, FragmentDefinitionNode>;
  counted: boolean;
}
const facts = new WeakMap<DocumentNode, DocumentFacts>();

function factsOf(document: DocumentNode): DocumentFacts {
  let known = facts.get(document);
  if (known) return known;
  const operations = new Map<string, OperationDefinitionNode>();
  const fragments: Record<string, FragmentDefinitionNode> = {};
  let count = 0;
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments[definition.name.value] = definition;
    if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
    count++;
    operations.set(definition.name?.value ?? '', definition);
  }
  if (count === 1 && !operations.has('')) operations.set('', [...operations.values()][0]!); // run without its name
  // A cheap test first: a document that names no counted field at all (staff queries) needs no walk.
  let counted = false;
  visit(document, {
    Field(node) {
      if (node.name.value in ROOT_FIELDS) counted = true;
    },
  });
  facts.set(document, (known = { operations, fragments, counted }));
  return known;
}

/**
 * The counted root fields the operation executes, with their subjects: fragments resolved, every alias, @skip and
 * @include applied with the request's variables. Empty when the variables do not coerce (execution refuses them).
 */
export function chargesOf(schema: GraphQLSchema, document: DocumentNode, operationName: string | null | undefined, rawVariables: Record<string, unknown> | null | undefined): RateCharge[] {
  const known = factsOf(document);
  if (!known.counted) return [];
  const operation = known.operations.get(operationName ?? '');
  if (!operation) return [];
  const root = schema.getRootType(operation.operation);
  if (!root) return [];
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], rawVariables ?? {});
  if (coerced.errors) return [];
  const fields: FieldNode[] = [];
  collectRootFields(root, known.fragments, coerced.coerced, operation.selectionSet, fields, new Set());
  const charges: RateCharge[] = [];
  for (const field of fields) {
    const rule = ROOT_FIELDS[field.name.value];
    const definition = root.getFields()[field.name.value];
    if (!rule || !definition) continue;
    let subject: string | undefined;
    try {
      subject = rule.subject?.(getArgumentValues(definition, field, coerced.coerced));
    } catch {
      subject = undefined; // arguments execution will refuse: counted per address only
    }
    charges.push({ group: rule.group, subject });
  }
  return charges;
}

/** graphql-js's collectFields for a root type, keeping every field node (each alias executes, so each counts). */
function collectRootFields(root: GraphQLObjectType, fragments: Record<string, FragmentDefinitionNode>, variables: Record<string, unknown>, selectionSet: SelectionSetNode, into: FieldNode[], visited: Set<string>): void {
  for (const selection of selectionSet.selections) {
    if (!included(selection, variables)) continue;
    if (selection.kind === Kind.FIELD) {
      into.push(selection);
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      if (selection.typeCondition && selection.typeCondition.name.value !== root.name) continue;
      collectRootFields(root, fragments, variables, selection.selectionSet, into, visited);
    } else {
      const name = selection.name.value;
      const fragment = fragments[name];
      if (visited.has(name) || !fragment || fragment.typeCondition.name.value !== root.name) continue;
      visited.add(name);
      collectRootFields(root, fragments, variables, fragment.selectionSet, into, visited);
    }
  }
}

function included(node: Parameters<typeof getDirectiveValues>[1], variables: Record<string, unknown>): boolean {
  if (getDirectiveValues(GraphQLSkipDirective, node, variables)?.if === true) return false;
  return getDirectiveValues(GraphQLIncludeDirective, node, variables)?.if !== false;
}

/**
 * Takes one request from each limit the operation's fields touch; over a limit, the result to answer instead of
 * executing (one RATE_LIMITED error, HTTP 429 and Retry-After, as on REST), else null. `asEvent`: the result is
 * answered as an event of a stream (below), whose response stays 200.
 */
export async function rateLimitResult(limiter: RateLimiter, charges: readonly RateCharge[], client: string, asEvent = false): Promise<ExecutionResult | null> {
  for (const { group, subject } of charges) {
    const decision = await limiter.take(group, client, subject);
    if (decision.allowed) continue;
    return {
      errors: [
        createGraphQLError('Too many requests. Wait a moment, then try again.', {
          extensions: {
            code: 'RATE_LIMITED',
            retryable: true,
            retryAfter: decision.retryAfter, // seconds, for a client with no Retry-After header (a socket, a stream)
            ...(asEvent ? {} : { http: { status: 429, headers: { 'retry-after': String(decision.retryAfter) } } }),
          },
        }),
      ],
    };
  }
  return null;
}

/** The media types yoga answers a result that is no stream with (its useResultProcessors' `regular`). */
const REGULAR_TYPES = ['application/graphql-response+json', 'application/json'];
const matching = (type: string, asked: string) => asked === '*/*' || asked === type || (asked.endsWith('/*') && type.startsWith(asked.slice(0, -1)));

/**
 * Whether yoga answers a result of this request as Server-Sent Events: the accept header takes text/event-stream
 * and none of the regular types (yoga's rule: among the processors that match, the regular one is chosen last and
 * wins). Such an answer's status must stay 200: graphql-sse's client reads a 429 as a failed connection, so the
 * RATE_LIMITED error never reached the app; a client retrying failed connections (the README's) retried it in
 * silence, without Retry-After (a frontend review). Its `next` event carries the error, then `complete`.
 */
export function answeredAsEvents(accept: string | null | undefined): boolean {
  if (!accept) return false;
  const asked = accept.split(',').map(mediaTypeOf);
  return asked.some((type) => matching('text/event-stream', type)) && !asked.some((type) => REGULAR_TYPES.some((regular) => matching(regular, type)));
}

export function useRateLimit(limiter: RateLimiter): Plugin<GraphQLContext> {
  return {
    async onExecute({ args, setResultAndStopExecution }) {
      const context = args.contextValue as GraphQLContext & { request?: Request };
      const charges = chargesOf(args.schema, args.document, args.operationName, args.variableValues as Record<string, unknown> | null | undefined);
      if (charges.length === 0) return;
      const limited = await rateLimitResult(limiter, charges, context.clientAddress, answeredAsEvents(context.request?.headers.get('accept')));
      if (limited) setResultAndStopExecution(limited);
    },
  };
}
