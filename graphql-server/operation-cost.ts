/**
 * The cost of one operation (docs/graphql.md#production, the 5,000 bound): GraphQL Armor's cost model — a scalar
 * costs 1, an object 2 plus 1.5 times what it selects, a list field's `first`/`last` multiplies its cost, `__schema`
 * costs nothing — with every fragment, named or inline, costing exactly its fields written out in its place.
 *
 * Armor's own rule (@escape.tech/graphql-armor-cost-limit 2.4.3) does not do that even with `flattenFragments`: each
 * spread adds a scalar's cost and its fragment an object's, each inline fragment an object's, all multiplied by the
 * `first` of every list above them, and a fragment's second spread costs 1.5 times its first. A client colocating
 * its fields in fragments (Apollo, Relay, codegen) paid 5,500 for a selection that costs 5,000 written out, and was
 * refused. A fragment's cost is the same wherever it is spread (the model has no depth of its own), so each is
 * reckoned once per operation: fragments that spread each other twice over cannot make the reckoning exponential.
 */
import { GraphQLError, Kind, type ASTVisitor, type FieldNode, type SelectionSetNode, type ValidationContext } from 'graphql';
import type { Plugin } from 'graphql-yoga';

const SCALAR_COST = 1;
const OBJECT_COST = 2;
const DEPTH_COST_FACTOR = 1.5;

export const QUERY_TOO_COSTLY = 'QUERY_TOO_COSTLY';

/** A validation rule refusing an operation that costs more than `maxCost`, with the cost it found. */
export function operationCostRule(maxCost: number) {
  return (context: ValidationContext): ASTVisitor => {
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
      const fragment = context.getFragment(name);
      if (!fragment) return 0; // KnownFragmentNamesRule reports it
      fragmentCosts.set(name, -1);
      const cost = selectionsCost(fragment.selectionSet);
      fragmentCosts.set(name, cost);
      return cost;
    };
    const fieldCost = (field: FieldNode): number => {
      if (field.name.value === '__schema') return 0;
      if (!field.selectionSet) return SCALAR_COST;
      return (OBJECT_COST + DEPTH_COST_FACTOR * selectionsCost(field.selectionSet)) * listMultiplier(field);
    };
    return {
      OperationDefinition(operation) {
        const cost = selectionsCost(operation.selectionSet);
        if (cost <= maxCost) return;
        context.reportError(
          new GraphQLError(`Query cost limit of ${maxCost} exceeded, found ${cost}: ask for fewer items (first) or fewer fields at once.`, {
            nodes: operation,
            extensions: { code: QUERY_TOO_COSTLY },
          }),
        );
      },
    };
  };
}

/** The rule on every operation yoga validates (the fast JSON path hands yoga what it does not answer itself). */
export function useOperationCost(maxCost: number): Plugin {
  return { onValidate: ({ addValidationRule }) => addValidationRule(operationCostRule(maxCost)) };
}

/** A literal `first` or `last` (the larger, at least 1): a variable's value is not known at validation, as in Armor. */
function listMultiplier(field: FieldNode): number {
  let multiplier = 1;
  for (const argument of field.arguments ?? []) {
    if ((argument.name.value === 'first' || argument.name.value === 'last') && argument.value.kind === Kind.INT) {
      multiplier = Math.max(multiplier, Number.parseInt(argument.value.value, 10));
    }
  }
  return multiplier;
}
