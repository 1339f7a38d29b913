/**
 * The cost of one operation (docs/graphql.md#production, the 10,000 bound): GraphQL Armor's cost model — a scalar
 * costs 1, an object 2 plus what it selects, a list field's `first`/`last` multiplies its cost — with every
 * fragment, named or inline, costing exactly its fields written out in its place, and `__schema` a flat SCHEMA_COST.
 *
 * Armor prices `__schema` at nothing, and its depth limit skips it: one request of 20 aliases of `__schema`, each
 * selecting types' fields' types four `ofType`s deep, answered 10.6 MB after 3 s of a core, RSS up 350 MB, every
 * other request waiting (a security review). Its selection cannot say how large the answer is (the schema's lists
 * take no `first`); one full introspection of this schema is about 0.5 MB, so `__schema` is priced as more than half
 * the bound whatever it selects: GraphiQL's and codegen's one introspection passes, a second in the operation does not.
 *
 * Armor's default also multiplies what an object selects by 1.5 at each level. A Relay connection puts every row two
 * levels down (edges, node), so that factor alone priced a page at 2.25 times its fields: one page of 50 orders with
 * 20 fields came to 5,847, and the largest page the schema serves (200) with 3 fields to 6,175, both over the 5,000
 * bound then set — the limit refused the schema's own pages. Without it the cost is about the fields the answer
 * holds; the bound admits the largest page with some 45 fields a row, and refuses what a cost limit is for: lists
 * multiplied by aliases, by lists inside them, or by fragments spread over and over.
 *
 * Armor's own rule (@escape.tech/graphql-armor-cost-limit 2.4.3) does not do that even with `flattenFragments`: each
 * spread adds a scalar's cost and its fragment an object's, each inline fragment an object's, all multiplied by the
 * `first` of every list above them, and a fragment's second spread costs 1.5 times its first. A client colocating
 * its fields in fragments (Apollo, Relay, codegen) paid 5,500 for a selection that costs 5,000 written out, and was
 * refused. A fragment's cost is the same wherever it is spread (the model has no depth of its own), so each is
 * reckoned once per operation: fragments that spread each other twice over cannot make the reckoning exponential.
 *
 * A `first: $n` is priced at its value. Validation cannot see variables (Armor prices it at 1, so
 * `orders(first: $n)` with n = 200 passed where `first: 200` was refused): it prices a variable at its default (or 1),
 * and an operation sized by a variable is reckoned again with the request's values before it runs, on yoga's path
 * (onExecute, onSubscribe) and on the fast JSON path alike (`variableCostError`).
 */
import {
  BREAK,
  GraphQLError,
  Kind,
  visit,
  type ASTVisitor,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
  type ValueNode,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';

const SCALAR_COST = 1;
const OBJECT_COST = 2;
/** Armor's default is 1.5 (see above). */
const DEPTH_COST_FACTOR = 1;
/** The arguments that multiply a list field's cost. */
const SIZE_ARGUMENTS = new Set(['first', 'last']);
/** One `__schema` (above): more than half of MAX_OPERATION_COST, so an operation holds at most one. */
export const SCHEMA_COST = 6_000;

export const QUERY_TOO_COSTLY = 'QUERY_TOO_COSTLY';
/** The most an operation may cost (docs/graphql.md#production). */
export const MAX_OPERATION_COST = 10_000;

type Variables = Readonly<Record<string, unknown>> | null | undefined;

/** The cost of `operation`, its fragments found by `fragmentOf`, each `first`/`last` variable at its value in `variables`. */
function costOf(operation: OperationDefinitionNode, fragmentOf: (name: string) => FragmentDefinitionNode | undefined | null, variables: Variables): number {
  const defaults = new Map<string, ValueNode | undefined>();
  for (const definition of operation.variableDefinitions ?? []) defaults.set(definition.variable.name.value, definition.defaultValue);
  const sizeOf = (value: ValueNode): number => {
    if (value.kind === Kind.INT) return Number.parseInt(value.value, 10);
    if (value.kind !== Kind.VARIABLE) return 1;
    const given = variables?.[value.name.value];
    if (typeof given === 'number' && Number.isInteger(given)) return given;
    const fallback = defaults.get(value.name.value);
    return given === undefined && fallback?.kind === Kind.INT ? Number.parseInt(fallback.value, 10) : 1;
  };
  // The larger of `first` and `last`, at least 1.
  const listMultiplier = (field: FieldNode): number => {
    let multiplier = 1;
    for (const argument of field.arguments ?? []) {
      if (SIZE_ARGUMENTS.has(argument.name.value)) multiplier = Math.max(multiplier, sizeOf(argument.value));
    }
    return multiplier;
  };
  // name → cost; -1 while it is being reckoned (a cycle, which NoFragmentCyclesRule reports, costs nothing more).
  const fragmentCosts = new Map<string, number>();
  const selectionsCost = (set: SelectionSetNode): number => {
    let cost = 0;
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) cost += fieldCost(selection);
      else if (selection.kind === Kind.INLINE_FRAGMENT) cost += selectionsCost(selection.selectionSet);
      else cost += fragmentCost(selection.name.value);
    }
    return cost;
  };
  const fragmentCost = (name: string): number => {
    const known = fragmentCosts.get(name);
    if (known !== undefined) return Math.max(known, 0);
    const fragment = fragmentOf(name);
    if (!fragment) return 0; // KnownFragmentNamesRule reports it
    fragmentCosts.set(name, -1);
    const cost = selectionsCost(fragment.selectionSet);
    fragmentCosts.set(name, cost);
    return cost;
  };
  const fieldCost = (field: FieldNode): number => {
    if (field.name.value === '__schema') return SCHEMA_COST;
    if (!field.selectionSet) return SCALAR_COST;
    return (OBJECT_COST + DEPTH_COST_FACTOR * selectionsCost(field.selectionSet)) * listMultiplier(field);
  };
  return selectionsCost(operation.selectionSet);
}

function tooCostly(maxCost: number, cost: number, operation: OperationDefinitionNode): GraphQLError {
  return new GraphQLError(`Query cost limit of ${maxCost} exceeded, found ${cost}: ask for fewer items (first) or fewer fields at once.`, {
    nodes: operation,
    extensions: { code: QUERY_TOO_COSTLY },
  });
}

/** A validation rule refusing an operation that costs more than `maxCost`, with the cost it found. */
export function operationCostRule(maxCost: number) {
  return (context: ValidationContext): ASTVisitor => ({
    OperationDefinition(operation) {
      const cost = costOf(operation, (name) => context.getFragment(name), undefined);
      if (cost > maxCost) context.reportError(tooCostly(maxCost, cost, operation));
    },
  });
}

/** Whether some `first`/`last` of the document is a variable: its cost is then known only with the request's values. */
export function sizedByVariables(document: DocumentNode): boolean {
  let sized = SIZED.get(document);
  if (sized === undefined) {
    sized = false;
    visit(document, {
      Argument(argument) {
        if (SIZE_ARGUMENTS.has(argument.name.value) && argument.value.kind === Kind.VARIABLE) {
          sized = true;
          return BREAK;
        }
        return undefined;
      },
    });
    SIZED.set(document, sized);
  }
  return sized;
}
/** Per parsed document (the document cache hands out one object per text): looked at once. */
const SIZED = new WeakMap<DocumentNode, boolean>();

/**
 * The refusal of an operation sized by variables that costs more than `maxCost` with this request's values, or null.
 * Costs nothing for a document with no variable `first`/`last` (most), after the first look.
 */
export function variableCostError(document: DocumentNode, operationName: string | null | undefined, variables: Variables, maxCost: number): GraphQLError | null {
  if (!sizedByVariables(document)) return null;
  const fragments = new Map<string, FragmentDefinitionNode>();
  let operation: OperationDefinitionNode | undefined;
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
    else if (definition.kind === Kind.OPERATION_DEFINITION && (operationName == null || definition.name?.value === operationName)) operation ??= definition;
  }
  if (operation === undefined) return null; // graphql-js words the error
  const cost = costOf(operation, (name) => fragments.get(name), variables);
  if (cost <= maxCost) return null;
  // Marked as yoga marks a validation error, which this is but for the variables: 400 under
  // graphql-response+json, 200 under application/json (request-errors.ts), on both paths.
  const refusal = tooCostly(maxCost, cost, operation);
  return new GraphQLError(refusal.message, { nodes: operation, extensions: { ...refusal.extensions, http: { status: 400, spec: true } } });
}

/**
 * The rule on every operation yoga validates (the fast JSON path hands yoga what it does not answer itself), and the
 * second reckoning, with the request's variables, of an operation sized by one: before it executes or subscribes.
 */
export function useOperationCost(maxCost: number): Plugin {
  const check = ({ args, setResultAndStopExecution }: { args: { document: DocumentNode; operationName?: string | null; variableValues?: Variables }; setResultAndStopExecution: (result: { errors: GraphQLError[] }) => void }) => {
    const error = variableCostError(args.document, args.operationName, args.variableValues, maxCost);
    if (error) setResultAndStopExecution({ errors: [error] });
  };
  return {
    onValidate: ({ addValidationRule }) => addValidationRule(operationCostRule(maxCost)),
    onExecute: check,
    onSubscribe: check,
  };
}
