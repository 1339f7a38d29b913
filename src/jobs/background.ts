/** What every background job (due-time work started with the server, disposed on SIGTERM) receives. */
import type { Clock } from '../kernel/clock.ts';
import type { Config } from '../kernel/config.ts';
import type { AppDatabase } from '../db/database.ts';
import type { EventBus } from '../events/event-bus.ts';
import type { Logger } from '../kernel/logger.ts';
import type { Services } from '../services.ts';

export interface Disposable {
  dispose(): Promise<void>;
}

export interface BackgroundDeps {
  services: Services;
  database: AppDatabase;
  config: Config;
  clock: Clock;
  bus: EventBus;
  logger: Logger;
}

export type BackgroundJob = (deps: BackgroundDeps) => Promise<Disposable>;
