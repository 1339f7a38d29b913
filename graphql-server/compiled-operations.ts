/**
 * Compiled plans for the fast JSON path: for a document that was parsed and validated before, the operation a
 * request names, compiled once by graphql-jit (the compiler yoga's jit plugin uses). Running the plan directly
 * skips envelop's per-request orchestration (context-building, execute and result hook rounds: about 3.7 µs of a
 * small query's ~6 µs, measured), while the three things those hooks do for this schema are done here in
 * the same way: the context (the same factory), the shared rate limits, and yoga's error masking.
 *
 * Only single-operation queries and mutations qualify (the same rule as the jit plugin's `enableIf`); anything
 * else returns undefined and runs through yoga's pipeline.
 */
import { Kind, type DocumentNode, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';

export interface CompiledOperation {
  operationName: string | undefined;
  query: CompiledQuery['query'];
  stringify: CompiledQuery['stringify'];
}

export interface CompiledOperations {
  /** The plan for the document's only operation, or undefined when it must go through yoga. */
  get(document: DocumentNode, operationName: string | undefined): CompiledOperation | undefined;
}

export function createCompiledOperations(schema: GraphQLSchema): CompiledOperations {
  // null: compiled once and found unfit (several operations, a subscription, a compile error).
  const plans = new WeakMap<DocumentNode, CompiledOperation | null>();
  return {
    get(document, operationName) {
      let plan = plans.get(document);
      if (plan === undefined) {
        plan = compile(schema, document);
        plans.set(document, plan);
      }
      if (!plan) return undefined;
      // A name that is not the operation's is an error yoga words; leave it to yoga.
      if (operationName !== undefined && plan.operationName !== operationName) return undefined;
      return plan;
    },
  };
}

function compile(schema: GraphQLSchema, document: DocumentNode): CompiledOperation | null {
  const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  if (operations.length !== 1 || operations[0]!.operation === 'subscription') return null;
  const compiled = compileQuery(schema, document);
  if (!isCompiledQuery(compiled)) return null;
  return { operationName: operations[0]!.name?.value, query: compiled.query, stringify: compiled.stringify };
}

/**
 * The execution-phase plugins (those with `onExecute` or `onContextBuilding`) that the compiled path does in place,
 * in yoga 5's order: the engine (graphql-js `execute`), the `context` option (our context factory), graphql-jit,
 * the shared rate limit, and yoga's error masking. A plugin added to the door that hooks execution would be
 * silently skipped by the compiled path, so the door counts them at start and runs every request through envelop
 * when the count is not this one (test/graphql/fast-path.test.ts fails then, to say the path needs a look).
 */
export const REPRODUCED_EXECUTION_PLUGINS = 5;

/** yoga's list holds `false` for a plugin switched off by its options; those hook nothing. */
export function executionPluginCount(plugins: readonly unknown[]): number {
  return plugins.filter((p) => typeof p === 'object' && p !== null && ('onExecute' in p || 'onContextBuilding' in p)).length;
}
