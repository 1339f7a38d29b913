/**
 * How a tool answers (CONTRACT §9, docs/agents.md#mcp-tools): the REST answer's JSON as `structuredContent`, and its
 * `message` and `nextAction` (or `error`) as text, so an agent that reads only text still knows what to say and do.
 * A failure is `isError: true` with document 1's Error body, built by the REST door's own mapping (same code, same
 * `retryable`). A tool never throws: the SDK would turn a thrown error into bare text.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { DomainError } from '../src/kernel/errors.ts';
import type { Logger } from '../src/kernel/logger.ts';
import { errorBody } from '../rest-compat/errors.ts';

export type Body = Record<string, unknown>;

const INTERNAL: Body = { ok: false, code: 'internal', error: 'Something went wrong on our side. Please try again.', retryable: true };

/** The text an agent reads: what to relay and what to do. */
function textOf(body: Body): string {
  if (body.ok === false && typeof body.error === 'string') {
    return `error: ${body.error}\ncode: ${String(body.code)}\nretryable: ${String(body.retryable)}`;
  }
  const lines: string[] = [];
  for (const key of ['message', 'nextAction', 'holdUntilText'] as const) {
    if (typeof body[key] === 'string') lines.push(`${key}: ${body[key] as string}`);
  }
  return lines.length > 0 ? lines.join('\n') : JSON.stringify(body);
}

export function answer(body: Body, extra: CallToolResult['content'] = []): CallToolResult {
  return {
    content: [{ type: 'text', text: textOf(body) }, ...extra],
    structuredContent: body,
    ...(body.ok === false ? { isError: true } : {}),
  };
}

/** Document 1's Error body for any failure; an unexpected one is logged once (without the arguments) and hidden. */
export function failure(error: unknown, logger: Logger, tool: string): CallToolResult {
  if (error instanceof DomainError) return answer(errorBody(error));
  logger.error('unexpected error in an MCP tool', { error, tool });
  return answer(INTERNAL);
}

/** Runs a tool body; whatever it throws becomes a failure result. */
export async function guarded(tool: string, logger: Logger, run: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await run();
  } catch (error) {
    return failure(error, logger, tool);
  }
}

/** The resource link of an order: what resources/read and resources/subscribe take. */
export function orderUri(orderNumber: string, payToken: string): string {
  return `sleeve://orders/${orderNumber}?t=${encodeURIComponent(payToken)}`;
}

export function orderLink(orderNumber: string, payToken: string): CallToolResult['content'] {
  return [
    {
      type: 'resource_link',
      uri: orderUri(orderNumber, payToken),
      name: `order ${orderNumber}`,
      description: 'This order as JSON; subscribe to it to hear of each status change.',
      mimeType: 'application/json',
    },
  ];
}
