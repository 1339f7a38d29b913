/** The ports every service receives. Services see these and nothing of HTTP, GraphQL or sockets. */
import type { Clock } from './clock.ts';
import type { Config } from './config.ts';
import type { AppDatabase } from '../db/database.ts';
import type { EventBus } from '../events/event-bus.ts';
import type { Logger } from './logger.ts';

export interface ServiceDeps {
  database: AppDatabase;
  clock: Clock;
  bus: EventBus;
  logger: Logger;
  /** PUBLIC_URL, the base of payUrl, images and dashboard links. */
  publicUrl: string;
  holdSeconds: number;
  /** The whole configuration, for the services that need a secret or a schedule (vault, dispatcher, webhook). */
  config: Config;
}
