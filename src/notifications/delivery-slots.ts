/**
 * The slots of one instance's dispatcher of merchants' endpoints (delivery-job.ts, docs/merchant-webhooks.md#isolation):
 * at most PER_ENDPOINT deliveries in flight per endpoint, PER_SITE per site, MAX_IN_FLIGHT in all.
 *
 * The site's share is what keeps one site from holding the instance: a site may have 50 endpoints, and 50 that hang
 * for the whole 10 s timeout would hold 800 of the 1,024 slots at 16 each, two such sites all of them, and every
 * other site's deliveries would wait for their timeouts. With 64 per site, 16 sites' worth of hanging endpoints are
 * needed to fill an instance. Within a site, an endpoint refused room by the site's share (its siblings hold it)
 * waits for the site's next free slot: it is named when one frees, and while it waits its siblings do not hand their
 * slots to themselves (the recorder's claim in the same commit), so they take turns.
 */

/** Deliveries in flight to one endpoint from one instance: a hanging endpoint holds at most these. */
export const PER_ENDPOINT = 16;
/** Deliveries in flight to one site's endpoints together, from one instance. */
export const PER_SITE = 64;
export const MAX_IN_FLIGHT = 1024;

export interface SlotHolder {
  id: string;
  site_id: string;
}

export class DeliverySlots {
  private readonly byEndpoint = new Map<string, number>();
  private readonly bySite = new Map<string, number>();
  /** Each endpoint's site, once seen: a refill asks for room before it reads the endpoint. */
  private readonly siteOf = new Map<string, string>();
  /** Per site, its endpoints refused room by the site's share alone. */
  private readonly waiting = new Map<string, Set<string>>();

  /** `inFlight`: the deliveries in flight on this instance now. */
  constructor(private readonly inFlight: () => number) {}

  /** Deliveries the endpoint may start now; an endpoint refused by its site's share alone is kept waiting. */
  room(endpoint: SlotHolder): number {
    this.siteOf.set(endpoint.id, endpoint.site_id);
    const ownRoom = Math.min(PER_ENDPOINT - (this.byEndpoint.get(endpoint.id) ?? 0), MAX_IN_FLIGHT - this.inFlight());
    const siteRoom = PER_SITE - (this.bySite.get(endpoint.site_id) ?? 0);
    if (siteRoom <= 0 && ownRoom > 0) {
      const waiting = this.waiting.get(endpoint.site_id);
      if (waiting) waiting.add(endpoint.id);
      else this.waiting.set(endpoint.site_id, new Set([endpoint.id]));
    }
    return Math.min(ownRoom, siteRoom);
  }

  /** The room of an endpoint known by id only; Infinity when its site was never seen (the caller reads it first). */
  roomOf(endpointId: string): number {
    const site = this.siteOf.get(endpointId);
    return site === undefined ? Infinity : this.room({ id: endpointId, site_id: site });
  }

  /** Whether another endpoint of the site waits for one of its slots (its siblings then hand none to themselves). */
  siteWaits(siteId: string): boolean {
    return (this.waiting.get(siteId)?.size ?? 0) > 0;
  }

  taken(endpoint: SlotHolder): void {
    this.byEndpoint.set(endpoint.id, (this.byEndpoint.get(endpoint.id) ?? 0) + 1);
    this.bySite.set(endpoint.site_id, (this.bySite.get(endpoint.site_id) ?? 0) + 1);
  }

  /** A slot freed: the endpoints of the site that were waiting for one, to refill (named once). */
  freed(endpoint: SlotHolder): string[] {
    decrement(this.byEndpoint, endpoint.id);
    decrement(this.bySite, endpoint.site_id);
    const waiting = this.waiting.get(endpoint.site_id);
    if (!waiting) return [];
    this.waiting.delete(endpoint.site_id);
    return [...waiting];
  }
}

function decrement(counts: Map<string, number>, key: string): void {
  const left = (counts.get(key) ?? 0) - 1;
  if (left > 0) counts.set(key, left);
  else counts.delete(key);
}
