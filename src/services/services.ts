/** Builds every service from the shared ports. The doors receive this object and nothing lower. */
import type { ServiceDeps } from './deps.ts';
import { createEventInfoService, type EventInfoService } from './event-info-service.ts';
import { createOptionsService, type OptionsService } from './options-service.ts';
import { createOrderService, type OrderService } from './order-service.ts';
import { createOrderStaffService, type OrderStaffService } from './order-staff-service.ts';
import { createLiveService, type LiveService } from './live-service.ts';
import type { HoldTicker } from '../scheduler/hold-ticker.ts';

export interface Services {
  options: OptionsService;
  orders: OrderService;
  /** Staff fulfilment (advance, collect, cancel, list) and the public pickup board. */
  staff: OrderStaffService;
  eventInfo: EventInfoService;
  live: LiveService;
}

export function createServices(deps: ServiceDeps & { ticker: HoldTicker }): Services {
  const options = createOptionsService(deps);
  const orders = createOrderService({ ...deps, options });
  const staff = createOrderStaffService(deps);
  return {
    options,
    orders,
    staff,
    eventInfo: createEventInfoService(deps),
    live: createLiveService({ ...deps, orders, options, staff }),
  };
}
