/** The event information text (document 1 §4 /llms-full.txt); staff may replace it (docs/ordering.md#event-information). */
import { DomainError } from '../kernel/errors.ts';
import { defaultEventInfo, EVENT_INFO_MAX_LENGTH } from './event-info.ts';
import { readSetting, writeSetting } from './settings-repository.ts';
import type { ServiceDeps } from '../kernel/service-deps.ts';

const KEY = 'event_info';

export interface EventInfoService {
  text(): Promise<string>;
  replace(text: string): Promise<string>;
  invalidate(): void;
}

export function createEventInfoService({ database, clock, bus, holdSeconds }: ServiceDeps): EventInfoService {
  let cached: Promise<string> | null = null;
  return {
    text() {
      cached ??= readSetting(database.db, KEY).then(
        (value) => value ?? defaultEventInfo(holdSeconds),
        (error: unknown) => {
          cached = null;
          throw error;
        },
      );
      return cached;
    },
    async replace(text) {
      if (text.trim().length === 0) throw new DomainError('validation_failed', 'The event information is empty.', { field: 'text' });
      if (text.length > EVENT_INFO_MAX_LENGTH) {
        throw new DomainError('validation_failed', `The event information is longer than ${EVENT_INFO_MAX_LENGTH} characters.`, { field: 'text' });
      }
      const now = clock.now();
      await writeSetting(database.db, KEY, text, now);
      cached = Promise.resolve(text);
      bus.publish('eventInfoChanged', { updatedAt: now });
      return text;
    },
    invalidate() {
      cached = null;
    },
  };
}
