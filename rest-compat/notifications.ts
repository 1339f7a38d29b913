/**
 * Notifications (docs/notifications.md#evidence-submission): the evidence operations, with site basic auth and document 3's error bodies —
 * `POST /v2/claims/{claimId}/evidence/file` (multipart: `evidenceType`, `file`) and
 * `POST /v2/claims/{claimId}/evidence/data-points` (JSON keyed by document 2's data point group names) — and the
 * processor's verification webhook `GET /webhooks/processor/{siteId}/{accountId}?bt_challenge=…` (document 2 §4).
 */
import { DomainError } from '../src/kernel/errors.ts';
import type { Claim } from '../src/disputes/claim-mapping.ts';
import type { RestDeps } from './rest-deps.ts';
import { json, readJson, text, type HttpRequest, type HttpResponse } from './http.ts';
import { inStyle, requireSite } from './platform-http.ts';
import type { Route } from './routes.ts';

/** The answer to an evidence submission (its shape is "not shown" in document 2): where the claim stands now. */
function claimEvidenceBody(claim: Claim): HttpResponse {
  return json(200, {
    status: 'success',
    claimId: claim.claimId,
    claimStatus: claim.status,
    requestedEvidenceTypes: claim.requestedEvidenceTypes,
    satisfiedEvidenceTypes: claim.satisfiedEvidenceTypes,
    missingEvidenceTypes: claim.missingEvidenceTypes,
  });
}

const badRequest = (field: string, message: string) => new DomainError('bad_request', message, { field, errors: [{ field, message }] });

/**
 * Parses a multipart body with the Web platform's own parser (Request.formData), from the body's exact bytes: an
 * evidence file is binary (PDF, PNG, JPEG), and reading the body as text would replace every byte that is not
 * UTF-8, so the file stored, its size and its SHA-256 would all be of altered bytes (docs/notifications.md#evidence-files).
 */
async function readForm(request: HttpRequest): Promise<FormData> {
  const contentType = request.headers['content-type'] ?? '';
  if (!/^multipart\/form-data\s*;/iu.test(contentType)) throw badRequest('body', 'Send multipart/form-data with the fields evidenceType and file.');
  const body = await request.bytes();
  try {
    return await new Request('http://evidence.local/', { method: 'POST', headers: { 'content-type': contentType }, body }).formData();
  } catch {
    throw badRequest('body', 'The multipart body could not be read.');
  }
}

export function createNotificationsRoutes({ services, logger, limiter }: RestDeps): Route[] {
  const { evidence } = services.disputes;
  const webhook = services.webhookChallenge;

  async function evidenceFile(request: HttpRequest, claimId: string): Promise<HttpResponse> {
    const site = await requireSite(request, services.sites);
    const form = await readForm(request);
    const evidenceType = form.get('evidenceType');
    const file = form.get('file');
    if (typeof evidenceType !== 'string' || evidenceType.trim() === '') throw badRequest('evidenceType', 'evidenceType is required, e.g. INVOICE.');
    if (file === null || typeof file === 'string') throw badRequest('file', 'file is required: the evidence document as a file part.');
    const claim = await evidence.submitFile(site, claimId, {
      evidenceType: evidenceType.trim(),
      fileName: file.name,
      contentType: file.type.split(';')[0]!.trim().toLowerCase(),
      bytes: new Uint8Array(await file.arrayBuffer()),
    });
    return claimEvidenceBody(claim);
  }

  async function evidenceDataPoints(request: HttpRequest, claimId: string): Promise<HttpResponse> {
    const site = await requireSite(request, services.sites);
    return claimEvidenceBody(await evidence.submitDataPoints(site, claimId, await readJson(request)));
  }

  async function processorChallenge(request: HttpRequest, siteId: string, accountId: string): Promise<HttpResponse> {
    // Counted before anything is looked up: the answer tells whether an account exists (rate-limiter.ts, 'challenge').
    const decision = await limiter.take('challenge', request.clientAddress);
    if (!decision.allowed) {
      const refused = text(429, 'Too Many Requests');
      refused.headers['retry-after'] = String(decision.retryAfter);
      return refused;
    }
    try {
      // One challenge: two (even one sent twice) are not the single value CONTRACT answers, so they are refused.
      const challenges = request.query.getAll('bt_challenge');
      return text(200, await webhook.answer(siteId, accountId, challenges.length === 1 ? challenges[0]! : null));
    } catch (error) {
      if (error instanceof DomainError && error.code === 'unauthorized') return text(401, 'Unauthorized');
      throw error;
    }
  }

  return [
    { method: 'POST', path: '/v2/claims/:claimId/evidence/file', handler: inStyle('platform', logger, evidenceFile) },
    { method: 'POST', path: '/v2/claims/:claimId/evidence/data-points', handler: inStyle('platform', logger, evidenceDataPoints) },
    { method: 'GET', path: '/webhooks/processor/:siteId/:accountId', handler: processorChallenge },
  ];
}
