/**
 * Issue 14, defect 11: evidence files are stored byte for byte (docs/notifications.md#evidence-files). A multipart
 * upload to `POST /v2/claims/{claimId}/evidence/file` used to be decoded as UTF-8 on its way in, so a PDF, PNG or
 * JPEG was stored altered, and its size and SHA-256 described the altered bytes. Both REST doors are checked: the
 * Fetch door of the in-memory gateway and node:http on a real port.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { liveServer } from '../support/live-server.ts';
import type { TestGateway } from '../support/gateway.ts';
import { openClaim } from './helpers.ts';

/** Every byte value 0–255, four times over: nothing in it may be changed, dropped or added. */
const EVERY_BYTE = new Uint8Array(Array.from({ length: 4 * 256 }, (_, i) => i % 256));
/** A real 1×1 PNG: its signature (0x89 'PNG' CR LF 0x1A LF) and chunks are not UTF-8. */
const PNG = new Uint8Array(Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64'));
/** Text that is UTF-8, with characters of two, three and four bytes. */
const TEXT = new TextEncoder().encode('Grüße — delivered ✓ 📦\r\n');

const FILES = [
  { name: 'every-byte.pdf', type: 'application/pdf', evidenceType: 'INVOICE', bytes: EVERY_BYTE },
  { name: 'label.png', type: 'image/png', evidenceType: 'PROOF_OF_DELIVERY', bytes: PNG },
  { name: 'chat.txt', type: 'text/plain', evidenceType: 'CUSTOMER_CORRESPONDENCE', bytes: TEXT },
];

type Send = (path: string, init: RequestInit) => Promise<Response>;

async function upload(t: TestGateway, send: Send, claimId: string, file: (typeof FILES)[number]) {
  const form = new FormData();
  form.set('evidenceType', file.evidenceType);
  form.set('file', new Blob([file.bytes], { type: file.type }), file.name);
  const response = await send(`/v2/claims/${claimId}/evidence/file`, { method: 'POST', headers: { authorization: t.siteAuthorization }, body: form });
  return { status: response.status, body: (await response.json()) as any };
}

async function uploadsAndReadsBack(t: TestGateway, send: Send) {
  const claim = await openClaim(t);
  for (const file of FILES) {
    const res = await upload(t, send, claim.claimId, file);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
  const stored = await t.gateway.services.disputes.evidence.storedFiles(claim.claimId);
  expect(stored.map((f) => f.fileName).sort()).toEqual(FILES.map((f) => f.name).sort());
  for (const file of FILES) {
    const kept = stored.find((f) => f.fileName === file.name)!;
    expect(kept.sizeBytes, file.name).toBe(file.bytes.byteLength);
    expect(kept.sha256, file.name).toBe(createHash('sha256').update(file.bytes).digest('hex'));
    expect(Buffer.from(kept.bytes).equals(Buffer.from(file.bytes)), file.name).toBe(true);
    expect(kept.contentType).toBe(file.type);
    expect(kept.evidenceType).toBe(file.evidenceType);
  }
}

describe('evidence files are stored exactly as uploaded', () => {
  it('keeps every byte, the true size and the true SHA-256 through the Fetch door', async () => {
    const s = await liveServer();
    await uploadsAndReadsBack(s, (path, init) => s.gateway.fetch(new Request(`http://sleeve.test${path}`, init)));
  });

  it('keeps every byte, the true size and the true SHA-256 through node:http on a real port', async () => {
    const s = await liveServer();
    await uploadsAndReadsBack(s, (path, init) => fetch(`http://127.0.0.1:${s.server.port}${path}`, init));
  });

  it('still refuses a body over MAX_BODY_BYTES with 413 on node:http, and stores nothing', async () => {
    const s = await liveServer({ env: { MAX_BODY_BYTES: '4096' } });
    const claim = await openClaim(s);
    const big = { ...FILES[0]!, bytes: new Uint8Array(8192).fill(0xff) };
    const res = await upload(s, (path, init) => fetch(`http://127.0.0.1:${s.server.port}${path}`, init), claim.claimId, big);
    expect(res.status).toBe(413);
    expect(await s.gateway.services.disputes.evidence.storedFiles(claim.claimId)).toEqual([]);
  });
});
