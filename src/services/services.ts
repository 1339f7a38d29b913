/** Builds every service from the shared ports. The doors receive this object and nothing lower. */
import type { ServiceDeps } from './deps.ts';
import { createEventInfoService, type EventInfoService } from './event-info-service.ts';
import { createOptionsService, type OptionsService } from './options-service.ts';
import { createOrderService, type OrderService } from './order-service.ts';

export interface Services {
  options: OptionsService;
  orders: OrderService;
  eventInfo: EventInfoService;
}

export function createServices(deps: ServiceDeps): Services {
  const options = createOptionsService(deps);
  return {
    options,
    orders: createOrderService({ ...deps, options }),
    eventInfo: createEventInfoService(deps),
  };
}
