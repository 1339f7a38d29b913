/**
 * Evidence for a claim (document 2 §2 evidence rules, docs/notifications.md#evidence-submission): a file for any requested type, or data points
 * for the types that have a data point group. Either satisfies its type, which is then never requested again;
 * once every requested type is satisfied the claim is EVIDENCE_SUBMITTED and its reminders stop. Only the site
 * that owns the claim may submit (another site's claim is as unknown as a missing one).
 */
import { createHash } from 'node:crypto';
import { DomainError } from '../kernel/errors.ts';
import type { Insertable } from 'kysely';
import { evidenceFiles, insertEvidence, updateClaim } from './claim-repository.ts';
import type { ClaimEvidenceTable } from './claim-tables.ts';
import { DATA_POINT_GROUPS, type DataPointGroup } from '../notifications/bodies.ts';
import { randomId } from '../kernel/tokens.ts';
import { loadClaim } from './claim-service.ts';
import type { Claim } from './claim-mapping.ts';
import type { ServiceDeps } from '../kernel/service-deps.ts';
import type { Site } from '../sites/site-service.ts';
import { transaction } from '../db/transaction.ts';

/** What a file upload may be: documents and images a reviewer can open (docs/notifications.md#evidence-submission leaves the limits to us). */
export const EVIDENCE_FILE_TYPES = ['application/pdf', 'image/png', 'image/jpeg', 'text/plain'] as const;
export const EVIDENCE_FILE_MAX_BYTES = 512 * 1024;
const MAX_ENTRIES_PER_GROUP = 100;

export interface EvidenceFile {
  evidenceType: string;
  fileName: string;
  contentType: string;
  bytes: Uint8Array;
}

/** A stored evidence file: the exact bytes uploaded, with their size and SHA-256 (docs/notifications.md#evidence-files). */
export interface StoredEvidenceFile extends EvidenceFile {
  sizeBytes: number;
  sha256: string;
  createdAt: number;
}

export interface EvidenceService {
  submitFile(site: Site, claimId: string, file: EvidenceFile): Promise<Claim>;
  /** The files a claim holds, oldest first, byte for byte as they were uploaded (for staff review). */
  storedFiles(claimId: string): Promise<StoredEvidenceFile[]>;
  /** `groups`: the JSON body, keyed by document 2's data point group names. */
  submitDataPoints(site: Site, claimId: string, groups: unknown): Promise<Claim>;
}

const badRequest = (field: string, message: string) => new DomainError('bad_request', message, { field, errors: [{ field, message }] });

function parseClaimId(value: string): number {
  if (!/^[0-9]{1,18}$/u.test(value)) throw new DomainError('not_found', 'No claim has that claimId.');
  return Number(value);
}

function checkFile(file: EvidenceFile): void {
  if (!(EVIDENCE_FILE_TYPES as readonly string[]).includes(file.contentType)) {
    throw badRequest('file', `The file must be one of ${EVIDENCE_FILE_TYPES.join(', ')}.`);
  }
  if (file.bytes.byteLength === 0) throw badRequest('file', 'The file is empty.');
  if (file.bytes.byteLength > EVIDENCE_FILE_MAX_BYTES) throw badRequest('file', `The file is larger than ${EVIDENCE_FILE_MAX_BYTES / 1024} KiB.`);
}

/** The data point body: only document 2's group names, each a non-empty array of objects. */
function checkGroups(groups: unknown): Array<[DataPointGroup, unknown[]]> {
  if (typeof groups !== 'object' || groups === null || Array.isArray(groups)) {
    throw badRequest('body', `Send a JSON object keyed by data point group names (${Object.keys(DATA_POINT_GROUPS).join(', ')}).`);
  }
  const entries = Object.entries(groups);
  if (entries.length === 0) throw badRequest('body', 'Send at least one data point group.');
  for (const [name, value] of entries) {
    // Own names only: `in` finds "constructor" and "__proto__" on every object's prototype.
    if (!Object.hasOwn(DATA_POINT_GROUPS, name)) throw badRequest(name, `${name} is not a data point group; use ${Object.keys(DATA_POINT_GROUPS).join(', ')}.`);
    if (!Array.isArray(value) || value.length === 0 || value.length > MAX_ENTRIES_PER_GROUP || !value.every((v) => typeof v === 'object' && v !== null && !Array.isArray(v))) {
      throw badRequest(name, `${name} is an array of 1 to ${MAX_ENTRIES_PER_GROUP} objects.`);
    }
  }
  return entries as Array<[DataPointGroup, unknown[]]>;
}

export function createEvidenceService({ database, clock }: ServiceDeps): EvidenceService {
  /** Loads the site's open claim, checks every type was requested, stores the evidence, settles the status. */
  async function submit(site: Site, claimIdText: string, types: string[], rows: (claimId: number, now: number) => Array<Insertable<ClaimEvidenceTable>>): Promise<Claim> {
    const claimId = parseClaimId(claimIdText);
    const now = clock.now();
    return transaction(database.db, async (trx) => {
      const claim = await loadClaim(trx, claimId, database.caps.skipLocked);
      if (!claim || claim.siteId !== site.siteId) throw new DomainError('not_found', 'No claim has that claimId.');
      if (claim.status === 'EXPIRED' || claim.dueAt <= now) throw badRequest('claimId', 'The claim is past its due date; evidence is no longer accepted.');
      const unrequested = types.find((t) => !claim.requestedEvidenceTypes.includes(t));
      if (unrequested !== undefined) throw badRequest('evidenceType', `${unrequested} was not requested for this claim; it asks for ${claim.requestedEvidenceTypes.join(', ')}.`);
      await insertEvidence(trx, rows(claimId, now));
      const after = (await loadClaim(trx, claimId))!;
      if (after.missingEvidenceTypes.length === 0 && after.status === 'OPEN') {
        await updateClaim(trx, claimId, { status: 'EVIDENCE_SUBMITTED', nextReminderAt: null, now });
        return { ...after, status: 'EVIDENCE_SUBMITTED' as const, nextReminderAt: null };
      }
      return after;
    });
  }

  return {
    async submitFile(site, claimId, file) {
      if (!file.evidenceType) throw badRequest('evidenceType', 'evidenceType is required, e.g. INVOICE.');
      checkFile(file);
      return submit(site, claimId, [file.evidenceType], (id, now) => [
        {
          id: randomId('evd_'),
          claim_id: id,
          evidence_type: file.evidenceType,
          kind: 'FILE',
          file_name: file.fileName.slice(0, 255),
          content_type: file.contentType,
          size_bytes: file.bytes.byteLength,
          sha256: createHash('sha256').update(file.bytes).digest('hex'),
          // The exact bytes, so what staff open is what was sent and matches its size and SHA-256. A Buffer view,
          // not a copy: both database drivers bind a Buffer as bytes (docs/notifications.md#evidence-files).
          content: Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength),
          data: null,
          created_at: now,
        },
      ]);
    },

    async storedFiles(claimId) {
      const rows = await evidenceFiles(database.db, parseClaimId(claimId));
      return rows.map((row) => ({
        evidenceType: row.evidence_type,
        fileName: row.file_name ?? '',
        contentType: row.content_type ?? '',
        bytes: new Uint8Array(row.content ?? new Uint8Array(0)),
        sizeBytes: Number(row.size_bytes),
        sha256: row.sha256 ?? '',
        createdAt: Number(row.created_at),
      }));
    },

    async submitDataPoints(site, claimId, body) {
      const groups = checkGroups(body);
      return submit(site, claimId, groups.map(([name]) => DATA_POINT_GROUPS[name]), (id, now) =>
        groups.map(([name, entries]) => ({
          id: randomId('evd_'),
          claim_id: id,
          evidence_type: DATA_POINT_GROUPS[name],
          kind: 'DATA_POINTS',
          file_name: null,
          content_type: null,
          size_bytes: null,
          sha256: null,
          content: null,
          data: JSON.stringify(entries),
          created_at: now,
        })),
      );
    },
  };
}
