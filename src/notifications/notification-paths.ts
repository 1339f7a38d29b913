/**
 * Document 2 §4: the five paths a notification is POSTed to, each with the one body type it carries. Queueing is
 * typed by this map, so a body can only be queued at its own path.
 */
import type { AccountUpdateBody, EvidenceRequestBody, ItemListingUpdateBody, OrderStatusUpdateBody, TokenUpdatedBody } from './bodies.ts';

export interface NotificationBodies {
  '/token-updated': TokenUpdatedBody;
  '/requestforevidencenotification': EvidenceRequestBody;
  '/accountupdatenotification': AccountUpdateBody;
  '/orderstatusupdatenotification': OrderStatusUpdateBody;
  '/itemlistingrequestupdatenotification': ItemListingUpdateBody;
}

export type NotificationPath = keyof NotificationBodies;

export const NOTIFICATION_PATHS: readonly NotificationPath[] = [
  '/token-updated',
  '/requestforevidencenotification',
  '/accountupdatenotification',
  '/orderstatusupdatenotification',
  '/itemlistingrequestupdatenotification',
];
