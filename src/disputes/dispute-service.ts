/**
 * The disputes area's face (document 2 §2 "Request for evidence"): claims opened by staff, with the evidence
 * requests and reminders they cause, and the evidence merchants submit against them.
 */
import type { ServiceDeps } from '../kernel/service-deps.ts';
import type { SiteService } from '../sites/site-service.ts';
import { createClaimService, type ClaimService } from './claim-service.ts';
import { createEvidenceService, type EvidenceService } from './evidence-service.ts';

export interface DisputeService {
  claims: ClaimService;
  evidence: EvidenceService;
}

export function createDisputeService(deps: ServiceDeps & { sites: SiteService }): DisputeService {
  return { claims: createClaimService(deps), evidence: createEvidenceService(deps) };
}
