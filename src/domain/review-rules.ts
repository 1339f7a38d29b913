/** Staff review inputs. Document 2 §8: `triggeredBy` at most 75 characters, `agentComments` at most 255. */
import { DomainError } from './errors.ts';

export const TRIGGERED_BY_MAX = 75;
export const AGENT_COMMENTS_MAX = 255;

export interface StaffDecisionInput {
  triggeredBy: string;
  comments: string | null;
}

export function checkStaffDecision({ triggeredBy, comments }: StaffDecisionInput): StaffDecisionInput {
  const who = triggeredBy.trim();
  if (who === '' || who.length > TRIGGERED_BY_MAX) {
    throw new DomainError('validation_failed', `triggeredBy must be 1 to ${TRIGGERED_BY_MAX} characters.`, { field: 'triggeredBy' });
  }
  const text = comments?.trim() || null;
  if (text !== null && text.length > AGENT_COMMENTS_MAX) {
    throw new DomainError('validation_failed', `comments must be at most ${AGENT_COMMENTS_MAX} characters.`, { field: 'comments' });
  }
  return { triggeredBy: who, comments: text };
}
