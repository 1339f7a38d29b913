/**
 * useStreamBudget: every subscription, over graphql-ws, SSE (both of graphql-sse's modes) and HTTP alike, takes a
 * place in its client address's stream budget (address-budget.ts) before it starts, and gives it back when its
 * stream ends — completed, unsubscribed, its socket closed, or ended on shutdown — or at once when it never started
 * (a wrong payToken, a staff field without the token, a rate limit). Past the bound it alone is refused with one
 * TOO_MANY_OPERATIONS error: the connection and its other subscriptions carry on.
 *
 * Listed right after useMetrics, whose hooks then see the refusal as an operation that failed; envelop calls the
 * result hooks of every plugin that ran before a refusal, so a place taken here is given back whichever plugin
 * refuses after it (envelop's orchestrator: `setResultAndStopExecution` ends the onSubscribe hooks early).
 */
import type { Plugin } from '@envelop/core';
import { GraphQLError } from 'graphql';
import { isAsyncIterable } from 'graphql-yoga';
import type { GraphQLContext } from '../schema/context.ts';
import { tooManyStreams, type AddressBudget } from '../src/kernel/address-budget.ts';
import { TOO_MANY_OPERATIONS_CODE } from './operation-bounds.ts';

export function useStreamBudget(budget: AddressBudget): Plugin<GraphQLContext> {
  return {
    onSubscribe({ args, setResultAndStopExecution }) {
      const address = args.contextValue.clientAddress;
      if (!budget.take(address)) {
        setResultAndStopExecution({ errors: [new GraphQLError(tooManyStreams(budget.limit), { extensions: { code: TOO_MANY_OPERATIONS_CODE } })] });
        return;
      }
      let given = false;
      const giveBack = () => {
        if (given) return;
        given = true;
        budget.give(address);
      };
      return {
        onSubscribeResult({ result }) {
          if (!isAsyncIterable(result)) return giveBack();
          return { onEnd: giveBack };
        },
        onSubscribeError: giveBack,
      };
    },
  };
}
