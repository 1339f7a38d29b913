/**
 * The tool calls running on this instance, reachable by what their clients post on any instance
 * (docs/agents.md#sessions): answers to their questions and cancellations come over the event bus (relay.ts), and
 * what the instances must agree on beyond it — act or cancel, the answers kept — from the call records
 * (call-records.ts).
 */
import type { RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { EventBus } from '../src/events/event-bus.ts';
import { DomainError } from '../src/kernel/errors.ts';
import type { Logger } from '../src/kernel/logger.ts';
import type { CallRecords, KeptAnswer } from './call-records.ts';
import { listenForClients, relayFromClient, type ClientRelay, type RelayedCancel, type RelayedTransport } from './relay.ts';

export interface InstanceCalls {
  /** Makes the call `callId` of the session `sessionKey` reachable until `remove`. */
  add(callId: string, sessionKey: string, transport: RelayedTransport): void;
  remove(callId: string): void;
  /**
   * The call serving `requestId` is about to act: false when a cancel was taken first, on any instance, and the call
   * then ends as cancelled here, as if the bus had already brought the cancel.
   */
  acting(sessionKey: string, transport: RelayedTransport, requestId: RequestId): Promise<boolean>;
  /** Relays a message a client posted (an answer, a cancellation) to the call it concerns, wherever it runs. */
  fromClient(sessionId: string, message: unknown): Promise<void>;
  /** Stops listening to the bus and closes the records' connection (the calls still running end with their requests). */
  dispose(): Promise<void>;
}

export function instanceCalls(bus: EventBus, instance: string, records: CallRecords, logger: Logger): InstanceCalls {
  const calls = new Map<string, { sessionKey: string; transport: RelayedTransport }>();
  const cancelHere = (cancel: RelayedCancel): void => {
    for (const call of calls.values()) if (call.sessionKey === cancel.sessionKey) call.transport.cancel(cancel);
  };
  const deliver = (callId: string, answer: KeptAnswer): void => {
    const call = calls.get(callId);
    if (call && call.sessionKey === answer.sessionKey) call.transport.deliver(answer.message as never);
  };
  const relay: ClientRelay = {
    // Kept only for an instance that misses the publish: not kept, the answer still goes over the bus.
    keep: (questionId, answer) => records.keepAnswer(questionId, answer).catch((error: unknown) => logger.warn('an MCP answer not kept', { error })),
    // Not recorded, a cancel is not taken: the client is told to send it again, not that it was.
    claim: (cancel) =>
      records.cancel(cancel.sessionKey, cancel.requestId).catch(() => {
        throw new DomainError('unavailable', 'The cancellation could not be recorded just now. Send it again in a moment.', { retryAfter: 1 });
      }),
    here: cancelHere,
  };
  const listening = listenForClients(bus, instance, { reply: (reply) => deliver(reply.callId, reply), cancel: cancelHere });
  // Answers published while this instance's subscriber was away are lost to it: its waiting questions' kept ones
  // are read instead (a taken cancel needs no such reading: the call's claim to act finds it).
  const stopRecovering = bus.onResume(() => {
    const waiting = [...calls].flatMap(([callId, { sessionKey, transport }]) =>
      transport.waitingQuestions().map((questionId) => ({ callId, sessionKey, questionId })),
    );
    if (waiting.length === 0) return;
    records.keptAnswers(waiting).then(
      (kept) => waiting.forEach(({ callId, questionId }) => kept.has(questionId) && deliver(callId, kept.get(questionId)!)),
      (error: unknown) => logger.warn('answers kept for waiting MCP questions not read', { error }),
    );
  });
  return {
    add: (callId, sessionKey, transport) => void calls.set(callId, { sessionKey, transport }),
    remove: (callId) => void calls.delete(callId),
    async acting(sessionKey, transport, requestId) {
      // Unclaimed, the call does not act: a cancel may have been taken that this instance cannot see.
      const acts = await records.act(sessionKey, requestId).catch(() => {
        throw new DomainError('unavailable', 'Nothing was done: the call could not be checked just now. Try again in a moment.', { retryAfter: 1 });
      });
      // Acting, the call is never cancelled after: a cancel from now on is not taken (call-records.ts), so none is
      // relayed, and the answer of what was done is sent. Not acting, it ends as the cancel taken elsewhere says.
      if (!acts) transport.cancel({ sessionKey, requestId });
      return acts;
    },
    fromClient: (sessionId, message) => relayFromClient(bus, sessionId, message, relay),
    async dispose() {
      listening.stop();
      stopRecovering();
      await records.dispose();
    },
  };
}
