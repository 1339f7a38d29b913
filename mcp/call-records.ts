/**
 * What the instances of one event must agree on about a tool call, beyond what the event bus carries
 * (docs/agents.md#sessions). In Redis when REDIS_URL is set; in memory otherwise (one instance).
 *
 * **Act or cancel, decided once.** A client's `notifications/cancelled` may reach one instance while the call it
 * names runs on another, which hears of it over the bus a moment later (relay.ts); a call that acts in that moment
 * makes the order its client was told was cancelled. So the two sides claim the request's one record, and the first
 * claim wins (`SET NX`: one record, one winner, whichever instance asks):
 * - the cancel, before its POST is answered: taken unless the call already acts; only a taken cancel is relayed;
 * - the call, right before it creates or pays: it acts unless a cancel was taken, and then ends as cancelled.
 * A record outlives any call that could still act (a question waits at most five minutes). MCP lets a client use a
 * request id once in a session, so a cancel of a request that had already ended claims nothing else.
 *
 * **Answers kept.** A client's answer to a question asked on another instance goes over the bus, and a publish made
 * while the asking instance's subscriber is away (Redis restarted, the link cut) is lost: the call waited out its
 * five minutes and told the agent nothing was confirmed. The answer is kept too, and the asking instance reads its
 * open questions' answers when the bus tells it events may have been lost (`onResume`). In memory nothing is kept:
 * one instance's bus loses nothing.
 */
import type { Redis } from 'ioredis';
import type { RequestId } from '@modelcontextprotocol/sdk/types.js';
import { RedisClient } from '../src/kernel/drivers.ts';
import { closeRedis, REDIS_COMMAND_TIMEOUT_MS } from '../src/kernel/redis-connection.ts';
import { sha256Hex } from '../src/kernel/tokens.ts';

/** A client's answer to a question, as relayed: the session (hashed) that sent it, and the message. */
export interface KeptAnswer {
  sessionKey: string;
  message: Record<string, unknown>;
}

export interface CallRecords {
  /** The client cancelled `requestId` of its session: true when taken (the call had not begun to act). */
  cancel(sessionKey: string, requestId: RequestId): Promise<boolean>;
  /** The call serving `requestId` is about to act: true when it may (no cancel was taken). */
  act(sessionKey: string, requestId: RequestId): Promise<boolean>;
  /**
   * Keeps the answer to the question `questionId` (`<instance>.<call>.<n>`) for as long as a question waits, under
   * the answering session: another session naming the same question keeps its own, and cannot replace this one.
   */
  keepAnswer(questionId: string, answer: KeptAnswer): Promise<void>;
  /** The answers each question's own session kept for it (in memory: none), by question id. */
  keptAnswers(questions: ReadonlyArray<{ sessionKey: string; questionId: string }>): Promise<Map<string, KeptAnswer>>;
  dispose(): Promise<void>;
}

type Claim = 'cancelled' | 'acting';

/** A record's lifetime: longer than a call that waits out its question (five minutes) and then acts. */
export const RECORD_TTL_SECONDS = 15 * 60;
/** The memory store's bound: past it, the oldest claims go first (a client posting cancels for ids it never used). */
export const MAX_MEMORY_CLAIMS = 100_000;

/** The claim's name: the request id as JSON (7 and "7" are two requests), a long one hashed. */
function claimName(sessionKey: string, requestId: RequestId): string {
  const id = JSON.stringify(requestId);
  return `${sessionKey}:${id.length > 80 ? sha256Hex(id) : id}`;
}

export function createCallRecords(options: { redisUrl: string | null; prefix: string }): CallRecords {
  return options.redisUrl ? redisRecords(options.redisUrl, `${options.prefix}mcp:`) : memoryRecords();
}

/**
 * Claims and answers in Redis: `<prefix>mcp:c:<session hash>:<request id>` and
 * `<prefix>mcp:a:<session hash>:<question id>`.
 */
function redisRecords(url: string, prefix: string): CallRecords {
  // Bounded as the session store's: a silent Redis fails the call rather than holding it.
  const redis: Redis = new (RedisClient())(url, { maxRetriesPerRequest: 1, commandTimeout: REDIS_COMMAND_TIMEOUT_MS });
  redis.on('error', () => {}); // ioredis reconnects; /ready reports Redis through the bus and the limiter
  const claim = async (name: string, wanted: Claim): Promise<Claim> => {
    if ((await redis.set(`${prefix}c:${name}`, wanted, 'EX', RECORD_TTL_SECONDS, 'NX')) === 'OK') return wanted;
    // Taken before: by the other side, or by this side once more. A record never changes once written; gone, it
    // expired in between, and the claim is tried again.
    return ((await redis.get(`${prefix}c:${name}`)) as Claim | null) ?? claim(name, wanted);
  };
  return {
    // A second cancel of a taken one is taken too: the relay repeats it harmlessly.
    cancel: async (sessionKey, requestId) => (await claim(claimName(sessionKey, requestId), 'cancelled')) === 'cancelled',
    act: async (sessionKey, requestId) => (await claim(claimName(sessionKey, requestId), 'acting')) === 'acting',
    async keepAnswer(questionId, answer) {
      await redis.set(`${prefix}a:${answer.sessionKey}:${questionId}`, JSON.stringify(answer), 'EX', RECORD_TTL_SECONDS);
    },
    async keptAnswers(questions) {
      const kept = new Map<string, KeptAnswer>();
      if (questions.length === 0) return kept;
      const values = await redis.mget(questions.map(({ sessionKey, questionId }) => `${prefix}a:${sessionKey}:${questionId}`));
      questions.forEach(({ questionId }, i) => values[i] && kept.set(questionId, JSON.parse(values[i]!) as KeptAnswer));
      return kept;
    },
    dispose: () => closeRedis(redis),
  };
}

function memoryRecords(): CallRecords {
  // In the order written: the expired and, past the bound, the oldest are at the front.
  const claims = new Map<string, { claim: Claim; until: number }>();
  const forgetOld = (now: number) => {
    for (const [name, record] of claims) {
      if (record.until > now && claims.size < MAX_MEMORY_CLAIMS) return;
      claims.delete(name);
    }
  };
  const claim = (name: string, wanted: Claim): Claim => {
    const now = Date.now();
    forgetOld(now);
    const held = claims.get(name);
    if (held) return held.claim;
    claims.set(name, { claim: wanted, until: now + RECORD_TTL_SECONDS * 1000 });
    return wanted;
  };
  return {
    cancel: async (sessionKey, requestId) => claim(claimName(sessionKey, requestId), 'cancelled') === 'cancelled',
    act: async (sessionKey, requestId) => claim(claimName(sessionKey, requestId), 'acting') === 'acting',
    keepAnswer: async () => {},
    keptAnswers: async () => new Map(),
    async dispose() {
      claims.clear();
    },
  };
}
