/**
 * What the MCP door's tools and resources are built from: the services every door shares (DESIGN.md), and what one
 * HTTP request tells about its caller.
 */
import type { Logger } from '../src/kernel/logger.ts';
import type { RateLimiter } from '../src/kernel/rate-limiter.ts';
import type { Services } from '../src/services.ts';

export interface ToolDeps {
  services: Services;
  limiter: RateLimiter;
  publicUrl: string;
  logger: Logger;
  /** HOLD_SECONDS: what the instructions, descriptions and questions say of the hold. */
  holdSeconds: number;
}

/** One request's caller: the same client address every limit of the other doors counts (docs/edge.md#client-address). */
export interface CallScope {
  clientAddress: string;
  sessionId: string;
  /** The client declared form elicitation at initialize (kept with its session: docs/agents.md#sessions). */
  canElicit: boolean;
  /** Authorization: Bearer ADMIN_TOKEN on this request (compared in constant time). */
  staff: boolean;
  /** The MCP revision this request speaks (mcp/early-answers.ts protocolVersionOf): content newer ones added is left out. */
  protocolVersion: string;
  /**
   * A tool is about to act for `requestId` (create, pay): false when a cancel was taken first, on any instance
   * (call-records.ts), and the call ends as cancelled; true, and a cancel from now on is not taken, so the answer of
   * what was done reaches the client (instance-calls.ts). Set by the door for each call.
   */
  acting?: (requestId: string | number) => Promise<boolean>;
}
