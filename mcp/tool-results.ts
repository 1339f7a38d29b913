/**
 * How a tool answers (CONTRACT §9, docs/agents.md#mcp-tools): the REST answer's JSON as `structuredContent`, and as
 * text its `message` and `nextAction` (or `error`) then the same JSON, so an agent that reads only text still knows
 * what to say and do, and has every value it is told to use.
 * A failure is `isError: true` with document 1's Error body, built by the REST door's own mapping (same code, same
 * `retryable`). A tool never throws: the SDK would turn a thrown error into bare text. Every answer's `nextAction`
 * is put in an MCP agent's terms first (agent-rules.ts inMcpTerms).
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { DomainError } from '../src/kernel/errors.ts';
import type { Logger } from '../src/kernel/logger.ts';
import { errorBody, retryAfterOf } from '../rest-compat/errors.ts';
import { inMcpTerms } from './agent-rules.ts';

export type Body = Record<string, unknown>;

const INTERNAL: Body = { ok: false, code: 'internal', error: 'Something went wrong on our side. Please try again.', retryable: true };

/**
 * The text an agent reads: first what to relay and what to do (`error`, `code`, `retryable`; `message`, `nextAction`,
 * `holdUntilText`, a duplicate has both sets), then the whole answer as JSON. Many hosts hand the model only
 * `content`: the lines alone told it to "pay with the payToken" and "open payUrl" and gave it neither, and left out
 * a staff list's orders; the MCP spec asks a tool returning structured content for its JSON as text too.
 */
function textOf(body: Body): string {
  const lines: string[] = [];
  if (body.ok === false && typeof body.error === 'string') {
    lines.push(`error: ${body.error}`, `code: ${String(body.code)}`, `retryable: ${String(body.retryable)}`);
    if (typeof body.retryAfter === 'number') lines.push(`retryAfter: ${body.retryAfter} seconds`);
  }
  for (const key of ['message', 'nextAction', 'holdUntilText'] as const) {
    if (typeof body[key] === 'string') lines.push(`${key}: ${body[key] as string}`);
  }
  lines.push(`${lines.length > 0 ? '\n' : ''}JSON: ${JSON.stringify(body)}`);
  return lines.join('\n');
}

export function answer(shared: Body, extra: CallToolResult['content'] = []): CallToolResult {
  const body = inMcpTerms(shared);
  return {
    content: [{ type: 'text', text: textOf(body) }, ...extra],
    structuredContent: body,
    ...(body.ok === false ? { isError: true } : {}),
  };
}

/** Document 1's Error body for any failure; an unexpected one is logged once (without the arguments) and hidden. */
export function failure(error: unknown, logger: Logger, tool: string): CallToolResult {
  if (error instanceof DomainError) return answer(withRetryAfter(errorBody(error), error));
  logger.error('unexpected error in an MCP tool', { error, tool });
  return answer(INTERNAL);
}

/**
 * REST says when to try again in a `Retry-After` header; a tool result has no headers, so the seconds go in the
 * body (`retryAfter`) and the text: "wait a moment" alone left an agent to hammer the server or give up.
 */
export function withRetryAfter(body: Body, error: DomainError): Body {
  const seconds = retryAfterOf(error);
  return seconds === undefined ? body : { ...body, retryAfter: seconds };
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

/** resource_link content arrived in MCP 2025-06-18: a client of an older revision fails to parse it (an SDK 1.10 did). */
const RESOURCE_LINKS_SINCE = '2025-06-18';

/** The order's resource link, for a client whose revision has the content type (`protocolVersion`, a date). */
export function orderLink(orderNumber: string, payToken: string, protocolVersion: string): CallToolResult['content'] {
  if (protocolVersion < RESOURCE_LINKS_SINCE) return [];
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
