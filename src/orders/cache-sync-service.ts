/**
 * Keeps each instance's in-memory copies (the sleeve options, the event information) in step with changes made on
 * any instance: the bus announces a change (through Redis when several instances run) and the copy is dropped,
 * to be read again from the database on next use. After a break in Redis both copies are dropped: a change made
 * meanwhile on another instance was announced to nobody.
 */
import type { EventBus } from '../events/event-bus.ts';
import type { EventInfoService } from './event-info-service.ts';
import type { OptionsService } from './options-service.ts';

export interface CacheSync {
  dispose(): Promise<void>;
}

export function startCacheSync(bus: EventBus, services: { options: OptionsService; eventInfo: EventInfoService }): CacheSync {
  const options = bus.subscribe('optionsChanged');
  const eventInfo = bus.subscribe('eventInfoChanged');
  void (async () => {
    for await (const event of options) {
      if ((services.options.cached()?.version ?? 0) < event.version) services.options.invalidate();
    }
  })();
  void (async () => {
    for await (const _event of eventInfo) services.eventInfo.invalidate();
  })();
  const unresume = bus.onResume(() => {
    services.options.invalidate();
    services.eventInfo.invalidate();
  });
  return {
    async dispose() {
      unresume();
      await Promise.all([options.return?.(), eventInfo.return?.()]);
    },
  };
}
