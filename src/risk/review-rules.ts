/** Staff review inputs. Document 2 §8: `triggeredBy` at most 75 characters, `agentComments` at most 255. */
import { DomainError } from '../kernel/errors.ts';

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

/** reviewAccount's reasons and recommendations: short labels, like the engine's reason codes. */
export const REVIEW_LABELS_MAX = 20;
export const REVIEW_LABEL_MAX = 100;

export function checkReviewLabels(field: 'reasons' | 'recommendations', labels: readonly string[]): string[] {
  const cleaned = labels.map((label) => label.trim());
  if (cleaned.length > REVIEW_LABELS_MAX || cleaned.some((label) => label === '' || label.length > REVIEW_LABEL_MAX)) {
    throw new DomainError('validation_failed', `${field}: at most ${REVIEW_LABELS_MAX} entries of 1 to ${REVIEW_LABEL_MAX} characters.`, { field });
  }
  return cleaned;
}
