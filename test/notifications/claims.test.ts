/**
 * Claims and evidence (document 2 §2, docs/notifications.md#evidence-submission): openClaim queues the evidence request; evidence by file and by
 * data points satisfies its types, which then leave the next reminder; reminders every EVIDENCE_REMINDER_HOURS
 * until the due date; EVIDENCE_SUBMITTED and EXPIRED; the evidence operations' auth and limits.
 */
import { describe, expect, it } from 'vitest';
import { CARDS, paymentBody, siteCalls } from '../payments/support.ts';
import { basicAuth, type TestGateway } from '../support/gateway.ts';
import { daysAhead, listNotifications, notifyingGateway, openClaim, OPEN_CLAIM, turnUntil } from './helpers.ts';

const HOUR = 3_600_000;

async function uploadFile(t: TestGateway, claimId: string, parts: { evidenceType?: string; file?: Blob; name?: string }, authorization = t.siteAuthorization) {
  const form = new FormData();
  if (parts.evidenceType !== undefined) form.set('evidenceType', parts.evidenceType);
  if (parts.file) form.set('file', parts.file, parts.name ?? 'invoice.pdf');
  const response = await t.gateway.fetch(new Request(`http://sleeve.test/v2/claims/${claimId}/evidence/file`, { method: 'POST', headers: { authorization }, body: form }));
  return { status: response.status, body: (await response.json()) as any };
}

const pdf = () => new Blob(['%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n%%EOF\n'], { type: 'application/pdf' });

async function dataPoints(t: TestGateway, claimId: string, body: unknown, authorization = t.siteAuthorization) {
  return t.rest('POST', `/v2/claims/${claimId}/evidence/data-points`, body, { authorization });
}

describe('claims and evidence', () => {
  it('opens a claim and sends the evidence request with every field of document 2', async () => {
    const t = await notifyingGateway();
    const claim = await openClaim(t);
    expect(claim.status).toBe('OPEN');
    expect(Number(claim.claimId)).toBeGreaterThan(1_000_000);
    const [request] = await t.receiver.waitFor(1);
    expect(request!.body).toEqual({
      timestamp: new Date(t.clock.now()).toISOString(),
      processorCaseNumber: 'case-1',
      processorName: 'sandbox',
      orderId: claim.orderId,
      claimId: Number(claim.claimId),
      issueDate: new Date(t.clock.now()).toISOString().slice(0, 10),
      dueDate: daysAhead(t, 10),
      hoursLeftUntilDisputed: claim.hoursLeftUntilDisputed,
      claimType: 'CHARGEBACK',
      reasonCode: '13.1',
      reasonCategory: 'SERVICE',
      amountClaimCurrency: 45.5,
      claimCurrency: 'USD',
      requestedEvidenceTypes: ['PROOF_OF_DELIVERY', 'INVOICE', 'CUSTOMER_CORRESPONDENCE'],
      uniqueMessageId: request!.headers['webhook-id'],
    });
    // Hours to the end of the due date (UTC), ten days from now: 240 to 263.
    expect(claim.hoursLeftUntilDisputed).toBeGreaterThanOrEqual(10 * 24);
    expect(claim.hoursLeftUntilDisputed).toBeLessThan(11 * 24);
    expect(t.receiver.schemaErrors).toEqual([]);
  });

  it('numbers claims from one counter and lists them for staff', async () => {
    const t = await notifyingGateway();
    const a = await openClaim(t);
    const b = await openClaim(t);
    expect(Number(b.claimId)).toBe(Number(a.claimId) + 1);
    const res = await t.gql('{ claims(first: 1) { totalCount pageInfo { hasNextPage endCursor } edges { node { claimId status } } } }', {}, { token: t.adminToken });
    expect(res.data.claims).toMatchObject({ totalCount: 2, pageInfo: { hasNextPage: true }, edges: [{ node: { claimId: a.claimId, status: 'OPEN' } }] });
    const next = await t.gql('query ($after: String) { claims(after: $after) { edges { node { claimId } } } }', { after: res.data.claims.pageInfo.endCursor }, { token: t.adminToken });
    expect(next.data.claims.edges).toEqual([{ node: { claimId: b.claimId } }]);
    expect((await t.gql('{ claims { totalCount } }')).errors?.[0]?.extensions?.code).toBe('UNAUTHORIZED');
  });

  it('opens a claim on a payment, by its id or by the orderId it was made for, keeping that orderId', async () => {
    const t = await notifyingGateway();
    const paid = await siteCalls(t).pay(paymentBody(CARDS.ok, { orderId: 'shop-77' }));
    expect(paid.status, JSON.stringify(paid.body)).toBe(201);
    // Named either way, the claim keeps the merchant's orderId, so a merchant can key its records on it (a merchant
    // review: the evidence requests carried the payment id or the orderId, as staff typed it).
    for (const orderId of [paid.body.id, 'shop-77']) {
      const claim = await t.gql(OPEN_CLAIM, { input: { orderId, claimType: 'CHARGEBACK', amount: 19.99, currency: 'USD', dueDate: daysAhead(t, 5), requestedEvidenceTypes: ['INVOICE'] } }, { token: t.adminToken });
      expect(claim.data.openClaim.orderId).toBe('shop-77');
    }
    await t.receiver.waitFor(2);
    expect(t.receiver.requests.map((r) => r.body.orderId)).toEqual(['shop-77', 'shop-77']);
  });

  it('refuses a claim on an unknown order, a past due date or no evidence types, and writes nothing', async () => {
    const t = await notifyingGateway();
    const { orderNumber } = await t.createOrder();
    const base = { orderId: orderNumber, claimType: 'FRAUD_ALERT', amount: 10, currency: 'EUR', dueDate: daysAhead(t, 3), requestedEvidenceTypes: ['INVOICE'] };
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ orderId: '999999' }, 'NOT_FOUND'],
      [{ dueDate: daysAhead(t, -2) }, 'VALIDATION_FAILED'],
      [{ dueDate: '2026-02-30' }, 'VALIDATION_FAILED'],
      // No date at all: the check threw a RangeError here (a masked 500) before it was shared (src/kernel/calendar-day.ts).
      [{ dueDate: '2026-13-01' }, 'VALIDATION_FAILED'],
      [{ requestedEvidenceTypes: [] }, 'VALIDATION_FAILED'],
      [{ requestedEvidenceTypes: ['proof of delivery'] }, 'VALIDATION_FAILED'],
      [{ amount: -1 }, 'VALIDATION_FAILED'],
      [{ currency: 'usd' }, 'VALIDATION_FAILED'],
      [{ siteId: 'site_unknown' }, 'NOT_FOUND'],
    ];
    for (const [change, code] of cases) {
      const res = await t.gql(OPEN_CLAIM, { input: { ...base, ...change } }, { token: t.adminToken });
      expect(res.errors?.[0]?.extensions?.code, JSON.stringify(change)).toBe(code);
    }
    expect(await listNotifications(t)).toEqual([]);
  });

  it('takes evidence by file and by data points, and the next reminder lists only what is still missing', async () => {
    const t = await notifyingGateway({ EVIDENCE_REMINDER_HOURS: '2' });
    const claim = await openClaim(t);
    await t.receiver.waitFor(1);

    const file = await uploadFile(t, claim.claimId, { evidenceType: 'INVOICE', file: pdf() });
    expect(file.status).toBe(200);
    expect(file.body).toMatchObject({ status: 'success', claimStatus: 'OPEN', satisfiedEvidenceTypes: ['INVOICE'], missingEvidenceTypes: ['PROOF_OF_DELIVERY', 'CUSTOMER_CORRESPONDENCE'] });

    await t.clock.advance(2 * HOUR);
    await turnUntil(t, () => t.receiver.distinct().length === 2);
    const reminder = t.receiver.distinct()[1]!.body;
    expect(reminder.requestedEvidenceTypes).toEqual(['PROOF_OF_DELIVERY', 'CUSTOMER_CORRESPONDENCE']);
    expect(reminder.claimId).toBe(Number(claim.claimId));
    expect(reminder.uniqueMessageId).not.toBe(t.receiver.requests[0]!.body.uniqueMessageId);
    expect(reminder.hoursLeftUntilDisputed).toBe(t.receiver.requests[0]!.body.hoursLeftUntilDisputed - 2);

    const points = await dataPoints(t, claim.claimId, { proofsOfDelivery: [{ carrier: 'UPS', trackingNumber: '1Z999', deliveredAt: '2026-11-20' }] });
    expect(points.status).toBe(200);
    expect(points.body.missingEvidenceTypes).toEqual(['CUSTOMER_CORRESPONDENCE']);

    await t.clock.advance(2 * HOUR);
    await turnUntil(t, () => t.receiver.distinct().length === 3);
    expect(t.receiver.distinct()[2]!.body.requestedEvidenceTypes).toEqual(['CUSTOMER_CORRESPONDENCE']);

    const last = await dataPoints(t, claim.claimId, { customerCorrespondences: [{ from: 'buyer@example.com', text: 'Got it, thanks!' }] });
    expect(last.body).toMatchObject({ claimStatus: 'EVIDENCE_SUBMITTED', missingEvidenceTypes: [] });
    await t.clock.jump(6 * HOUR); // a reminder wrongly due would still fire, once
    await new Promise((r) => setTimeout(r, 100));
    expect(t.receiver.distinct()).toHaveLength(3); // nothing left to ask for
    expect(t.receiver.schemaErrors).toEqual([]);
  });

  // Moving the manual clock a day fires every poll of every job on the way (the hold timer's each 30 s, the
  // dispatchers' each minute: thousands of sweeps): 20 s alone on PostgreSQL here, over 30 s once in a loaded suite.
  it('reminds until the due date, then the claim is EXPIRED and evidence is refused', { timeout: 90_000 }, async () => {
    const t = await notifyingGateway({ EVIDENCE_REMINDER_HOURS: '3' });
    const claim = await openClaim(t, { dueDate: daysAhead(t, 0) });
    await t.receiver.waitFor(1);
    const dueAt = Date.parse(`${daysAhead(t, 0)}T00:00:00Z`) + 24 * HOUR;
    const opened = t.clock.now();
    await t.clock.advance(dueAt - opened + HOUR);
    await new Promise((r) => setTimeout(r, 100));
    // Due at the end of today (UTC): one reminder every 3 hours strictly before then, none after.
    const reminders = Math.ceil((dueAt - opened) / (3 * HOUR)) - 1;
    // Distinct ids: moving the clock a day at once can time out a POST still in flight, which is then retried.
    expect(t.receiver.distinct()).toHaveLength(1 + reminders);
    for (const request of t.receiver.requests) expect(request.body.hoursLeftUntilDisputed).toBeGreaterThanOrEqual(0);
    const res = await t.gql('{ claims { edges { node { status hoursLeftUntilDisputed } } } }', {}, { token: t.adminToken });
    expect(res.data.claims.edges[0].node).toEqual({ status: 'EXPIRED', hoursLeftUntilDisputed: 0 });
    const late = await uploadFile(t, claim.claimId, { evidenceType: 'INVOICE', file: pdf() });
    expect(late.status).toBe(400);
  });

  it('checks the evidence operations: site auth, unknown claims, unrequested types, file types and sizes, group names', async () => {
    const t = await notifyingGateway();
    const claim = await openClaim(t, { requestedEvidenceTypes: ['INVOICE', 'PROOF_OF_REFUND'] });
    expect((await uploadFile(t, claim.claimId, { evidenceType: 'INVOICE', file: pdf() }, basicAuth(t.siteId, 'wrong'))).status).toBe(401);
    expect((await dataPoints(t, claim.claimId, { proofsOfRefund: [{}] }, '')).status).toBe(401);
    const unknown = await uploadFile(t, '424242', { evidenceType: 'INVOICE', file: pdf() });
    expect(unknown).toEqual({ status: 404, body: { status: 'error', message: 'No claim has that claimId.' } });
    const unrequested = await uploadFile(t, claim.claimId, { evidenceType: 'PROOF_OF_DELIVERY', file: pdf() });
    expect(unrequested.status).toBe(400);
    expect(unrequested.body.errors[0].field).toBe('evidenceType');
    const exe = await uploadFile(t, claim.claimId, { evidenceType: 'INVOICE', file: new Blob(['MZ'], { type: 'application/x-msdownload' }), name: 'a.exe' });
    expect(exe.status).toBe(400);
    const big = await uploadFile(t, claim.claimId, { evidenceType: 'INVOICE', file: new Blob(['x'.repeat(600 * 1024)], { type: 'text/plain' }), name: 'big.txt' });
    expect(big.status).toBe(400);
    expect((await uploadFile(t, claim.claimId, { file: pdf() })).status).toBe(400);
    expect((await dataPoints(t, claim.claimId, { proofsOfDelivery: [{}] })).status).toBe(400); // type not requested
    expect((await dataPoints(t, claim.claimId, { refunds: [{}] })).status).toBe(400); // not a group name
    // Names every object inherits: refused before as an unrequested evidence type named after Object's prototype
    // (`name in DATA_POINT_GROUPS` found them there). As JSON text, so that "__proto__" is a key of its own.
    for (const inherited of ['constructor', 'toString', '__proto__']) {
      const refused = await dataPoints(t, claim.claimId, `{"${inherited}":[{}]}`);
      expect(refused.status, inherited).toBe(400);
      expect(refused.body.errors.map((e: { field: string }) => e.field), inherited).toEqual([inherited]);
    }
    expect((await dataPoints(t, claim.claimId, { proofsOfRefund: [] })).status).toBe(400);
    expect((await dataPoints(t, claim.claimId, 'not json')).status).toBe(400);
    // Evidence of a valid request still counts.
    const refund = await dataPoints(t, claim.claimId, { proofsOfRefund: [{ refundId: 'r1', amount: 45.5 }] });
    expect(refund.body.satisfiedEvidenceTypes).toEqual(['PROOF_OF_REFUND']);
  });
});
