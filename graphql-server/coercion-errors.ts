/**
 * graphql-js's own words for a variable that fails to coerce, in place of graphql-jit's (docs/graphql.md#status-codes).
 * graphql-jit names the input field it stopped at as if it were the variable: `$i: OrderInput!` with `"font": true`
 * was `Variable "$font" got invalid value true`, a variable the operation does not have; graphql-js says
 * `Variable "$i" got invalid value true at "i.font"`. Only when an operation's result is such errors and no data is
 * graphql-js asked, so an operation that runs costs nothing more; its errors then replace jit's, on yoga's path
 * (useCoercionErrors, an execution plugin) and on the fast JSON path alike.
 *
 * graphql-js's words quote the value that failed, an input object whole: `got invalid value { t: "…", token: "…" }`
 * put an attendee's payToken and card token in an error that client error reporters keep. The value is left out
 * (the path names where it failed), and a scalar's "cannot represent … value: X" stops before X. Each error carries
 * `extensions.code` `BAD_USER_INPUT`, as every other kind of error here has a code.
 */
import { getOperationAST, getVariableValues, GraphQLError, type DocumentNode, type ExecutionResult, type GraphQLSchema } from 'graphql';
import { isAsyncIterable, type Plugin } from 'graphql-yoga';

export function withCoercionErrors<R extends ExecutionResult>(
  result: R,
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
  variables: Record<string, unknown> | null | undefined,
): R {
  if (result.data !== undefined || !result.errors?.length) return result;
  if (!result.errors.every((error) => error.path === undefined && error.message.startsWith('Variable "$'))) return result;
  const operation = getOperationAST(document, operationName);
  if (!operation) return result;
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], variables ?? {}, { maxErrors: 50 });
  return coerced.errors?.length ? { ...result, errors: coerced.errors.map(withoutValue) } : result;
}

/** `Variable "$i" got invalid value {…} at "i.t"; reason` → `Variable "$i" got an invalid value at "i.t"; reason`. */
const QUOTED_VALUE = /^(Variable "\$\w+" got) invalid value [\s\S]*?((?: at "[^"]*")?; )/u;
/** graphql-js's scalars: `String cannot represent a non string value: {…}` and the like. */
const REPRESENTED_VALUE = /(cannot represent [^:]*value): [\s\S]*$/u;

function withoutValue(error: GraphQLError): GraphQLError {
  const message = error.message.replace(QUOTED_VALUE, '$1 an invalid value$2').replace(REPRESENTED_VALUE, '$1.');
  return new GraphQLError(message, { nodes: error.nodes, extensions: { ...error.extensions, code: 'BAD_USER_INPUT' } });
}

type Operation = { schema: GraphQLSchema; document: DocumentNode; operationName?: string | null; variableValues?: unknown };

/** A hook's result worded as above; a stream is left alone. */
function reword(args: Operation, result: ExecutionResult | AsyncIterable<unknown>, setResult: (result: ExecutionResult) => void): void {
  if (isAsyncIterable(result)) return;
  const worded = withCoercionErrors(result, args.schema, args.document, args.operationName, args.variableValues as Record<string, unknown> | undefined);
  if (worded !== result) setResult(worded);
}

/**
 * Queries and mutations through `onExecute`; subscriptions open their stream through `subscribe`, which refuses such
 * a variable with graphql-js's words, the value quoted, and no code (over graphql-ws, SSE and HTTP streams alike),
 * so `onSubscribe` words them too.
 */
export const useCoercionErrors: Plugin = {
  onExecute: ({ args }) => ({ onExecuteDone: ({ result, setResult }) => reword(args, result, setResult) }),
  onSubscribe: ({ args }) => ({ onSubscribeResult: ({ result, setResult }) => reword(args, result, setResult) }),
};
