/**
 * The slots of one instance's dispatcher of merchants' endpoints (delivery-job.ts, docs/merchant-webhooks.md#isolation):
 * at most PER_ENDPOINT deliveries in flight per endpoint, MAX_IN_FLIGHT in all, and a site's share between them.
 *
 * The site's share is what keeps one site from holding the instance: a site may have 50 endpoints, and 50 that hang
 * for the whole 10 s timeout would hold 800 of the 1,024 slots at 16 each, two such sites all of them, and every
 * other site's deliveries would wait for their timeouts. An endpoint's first OWN_SLOTS are its own, outside the
 * share, so that a site's hanging endpoints never hold up a healthy sibling: when four of them filled the share of
 * 64, their siblings' deliveries waited for the timeouts (a merchant review: 8 to 20 s). Beyond those, an endpoint
 * refused room by the share waits for the site's next free slot: it is named when one frees, and while it waits its
 * siblings do not hand their slots to themselves (the recorder's claim in the same commit), so they take turns.
 * An endpoint in a failure run (`failing_since`) keeps its own slots alone: one that hangs for every attempt holds
 * two slots, not sixteen, once its first attempts have timed out, so 16 sites' worth of hanging endpoints are
 * still needed to fill an instance.
 */

/** Deliveries in flight to one endpoint from one instance: a hanging endpoint holds at most these. */
export const PER_ENDPOINT = 16;
/** An endpoint's slots outside its site's share: what it may always have in flight, and all a failing one may. */
export const OWN_SLOTS = 2;
/** Deliveries in flight to one site's endpoints together beyond their own slots, from one instance. */
export const PER_SITE = 64;
export const MAX_IN_FLIGHT = 1024;

export interface SlotHolder {
  id: string;
  site_id: string;
  failing_since: number | null;
}

export class DeliverySlots {
  private readonly byEndpoint = new Map<string, number>();
  /** Per site, the slots its endpoints hold beyond their own (OWN_SLOTS each): the share's use. */
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
    const held = this.byEndpoint.get(endpoint.id) ?? 0;
    const cap = endpoint.failing_since == null ? PER_ENDPOINT : OWN_SLOTS;
    const ownRoom = Math.min(cap - held, MAX_IN_FLIGHT - this.inFlight());
    const outsideShare = Math.max(0, OWN_SLOTS - held);
    const siteRoom = PER_SITE - (this.bySite.get(endpoint.site_id) ?? 0);
    if (siteRoom <= 0 && ownRoom > outsideShare) {
      const waiting = this.waiting.get(endpoint.site_id);
      if (waiting) waiting.add(endpoint.id);
      else this.waiting.set(endpoint.site_id, new Set([endpoint.id]));
    }
    return Math.min(ownRoom, outsideShare + Math.max(0, siteRoom));
  }

  /**
   * The room of an endpoint known by id only, as if it were not failing (the caller reads it afresh and asks
   * again); Infinity when its site was never seen (the caller reads it first).
   */
  roomOf(endpointId: string): number {
    const site = this.siteOf.get(endpointId);
    return site === undefined ? Infinity : this.room({ id: endpointId, site_id: site, failing_since: null });
  }

  /**
   * After a claim that took all the room the endpoint had, with maybe more due: it waits for the site's next free
   * slot if the site's share is what ran out (room() marks it), so that it is named when a sibling frees one.
   */
  waitIfShareIsFull(endpoint: SlotHolder): void {
    this.room(endpoint);
  }

  /** Whether another endpoint of the site waits for one of its slots (its siblings then hand none to themselves). */
  siteWaits(siteId: string): boolean {
    return (this.waiting.get(siteId)?.size ?? 0) > 0;
  }

  taken(endpoint: SlotHolder): void {
    const held = (this.byEndpoint.get(endpoint.id) ?? 0) + 1;
    this.byEndpoint.set(endpoint.id, held);
    if (held > OWN_SLOTS) this.bySite.set(endpoint.site_id, (this.bySite.get(endpoint.site_id) ?? 0) + 1);
  }

  /** A slot freed: the endpoints of the site that were waiting for one, to refill (named once). */
  freed(endpoint: SlotHolder): string[] {
    if ((this.byEndpoint.get(endpoint.id) ?? 0) > OWN_SLOTS) decrement(this.bySite, endpoint.site_id);
    decrement(this.byEndpoint, endpoint.id);
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
