/**
 * The chaos clients: several workers, each in a loop, doing what attendees, merchants and staff do —
 * create and pay orders (demo card, cards that succeed, decline or time out), POST /api/payments with and without an
 * Idempotency-Key (retrying retryable answers under the same key), card updates, staff moving paid orders forward and
 * opening chargebacks — and writing every answer into the ledger, while `running()` says so. Half the workers are the
 * bootstrap site and half the created merchant (endpoints.ts), so both sites' notifications are in flight at every
 * fault. An answer that never came is `maybe`, never a success.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ChaosTenants } from './endpoints.ts';
import type { Instances } from './instances.ts';
import type { Ledger } from './ledger.ts';

const WORKERS = 6;
const CARDS = { ok: '4242424242424242', declined: '4000000000000002', timeout: '4000000000000259' };

type Answer = { status: number; body: any } | null;

export function createClient(instances: Instances, ledger: Ledger) {
  return async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
    ledger.counts.requests++;
    try {
      const response = await fetch(instances.any() + path, {
        method,
        headers: { 'content-type': 'application/json', ...headers },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(5_000),
      });
      const text = await response.text();
      return { status: response.status, body: text.startsWith('{') ? JSON.parse(text) : text };
    } catch {
      ledger.counts.unanswered++;
      return null; // killed mid-request, or not listening yet
    }
  };
}

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;
const card = (cardNumber: string, expirationMonth = 12, expirationYear = 2030) => ({ cardNumber, expirationMonth, expirationYear, cardHolderName: 'Ada Lovelace' });

const OPEN_CHARGEBACK = 'mutation ($o: ID!, $d: String!) { openClaim(input: { orderId: $o, claimType: CHARGEBACK, amount: 9.5, currency: "USD", dueDate: $d, requestedEvidenceTypes: ["INVOICE"] }) { claimId } }';

async function worker(id: number, instances: Instances, ledger: Ledger, tenants: ChaosTenants, running: () => boolean): Promise<void> {
  const call = createClient(instances, ledger);
  const site = id % 2 === 0 ? tenants.bootstrap : tenants.merchant;
  let serial = 0;
  let token: string | null = null;

  async function orderFlow() {
    const created = await call('POST', '/api/orders', { email: `w${id}-${serial++}-${randomUUID().slice(0, 8)}@example.com`, name: 'Ada Lovelace', size: '13-inch', font: 'Block', thread: 'Gold', stitchText: 'CHAOS' });
    if (created?.status !== 201) return;
    const { orderNumber, payToken } = created.body;
    const entry = { orderNumber, payToken, paid: false, advancedTo: null };
    ledger.orders.set(orderNumber, entry);
    if (Math.random() < 0.2) return; // left unpaid: its hold must end
    let pay: Record<string, unknown> = { t: payToken, method: 'vendor_card' };
    if (Math.random() < 0.5) {
      const number = pick([CARDS.ok, CARDS.ok, CARDS.timeout, CARDS.declined]);
      const tokenized = await call('POST', `/api/orders/${orderNumber}/card-token`, { t: payToken, ...card(number), cvc: '123' });
      if (tokenized?.status !== 200) return;
      pay = { t: payToken, method: 'card', token: tokenized.body.token };
    }
    for (let attempt = 0; attempt < 4; attempt++) {
      const answer = await call('POST', `/api/orders/${orderNumber}/pay`, pay);
      if (answer?.status === 200) {
        entry.paid = true;
        ledger.counts.ordersPaid++;
        ledger.claimable.push(orderNumber);
        return;
      }
      if (answer && !answer.body.retryable) return; // declined, cancelled, …
      await sleep(300);
    }
  }

  async function apiPayment() {
    const key = Math.random() < 0.5 ? randomUUID() : null;
    const number = pick([CARDS.ok, CARDS.ok, CARDS.timeout, CARDS.declined]);
    const body = {
      orderId: `chaos-${id}-${serial++}`,
      amount: 1999,
      currency: 'USD',
      customer: { email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace' },
      paymentMethod: { type: 'card', card: { number, expirationMonth: 12, expirationYear: 2030, holderName: 'Ada Lovelace', cvc: '123' } },
    };
    for (let attempt = 0; attempt < (key ? 5 : 1); attempt++) {
      const answer = await call('POST', '/api/payments', body, { authorization: site.auth, ...(key ? { 'idempotency-key': key } : {}) });
      if (answer?.status === 201) {
        ledger.payments.set(answer.body.id, answer.body.status);
        ledger.counts.apiPayments++;
        if (answer.body.status === 'succeeded') ledger.claimable.push(body.orderId);
        return;
      }
      if (answer && answer.status < 500 && answer.status !== 429) return;
      await sleep(400);
    }
  }

  async function cardUpdate() {
    if (!token) {
      const number = `42424242424${String(10000 + id).slice(1)}`;
      const full = number + luhnDigit(number);
      const tokenized = await call('POST', '/v1/tokenization/tokenize', card(full), { authorization: site.auth });
      if (tokenized?.status !== 200) return;
      token = tokenized.body.token as string;
      ledger.cards.set(token, { site: site.id, number: full, initial: '1230', updates: [] });
      return;
    }
    const entry = ledger.cards.get(token)!;
    const month = 1 + Math.floor(Math.random() * 12);
    const expiration = `${String(month).padStart(2, '0')}31`;
    const answer = await call('POST', '/v1/account-updater/card/update', card(entry.number, month, 2031), { authorization: site.auth });
    entry.updates.push({ expiration, outcome: answer === null ? 'maybe' : answer.status === 200 ? 'ok' : answer.status >= 500 ? 'maybe' : 'refused' });
    if (answer?.status === 200) ledger.counts.cardUpdates++;
  }

  async function staffMove() {
    const paid = [...ledger.orders.values()].filter((o) => o.paid && o.advancedTo !== 'ready');
    if (paid.length === 0) return;
    const order = pick(paid);
    const status = order.advancedTo === null ? 'IN_PROGRESS' : 'READY';
    const answer = await call('POST', '/graphql', { query: `mutation { advanceOrder(orderNumber: "${order.orderNumber}", status: ${status}) { status } }` }, { authorization: 'Bearer chaos-admin' });
    if (answer?.status === 200 && answer.body.data?.advanceOrder?.status === status) {
      order.advancedTo = status === 'READY' ? 'ready' : 'in progress';
      ledger.counts.staffMoves++;
    }
  }

  /** Staff open a chargeback on an order of either site: its evidence request belongs to that order's site. */
  async function openClaim() {
    if (ledger.claimable.length === 0) return;
    const orderId = pick(ledger.claimable);
    const dueDate = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
    const answer = await call('POST', '/graphql', { query: OPEN_CHARGEBACK, variables: { o: orderId, d: dueDate } }, { authorization: 'Bearer chaos-admin' });
    const claimId = answer?.status === 200 ? answer.body.data?.openClaim?.claimId : undefined;
    if (claimId !== undefined) {
      ledger.claims.set(String(claimId), orderId);
      ledger.counts.claims++;
    }
  }

  while (running()) {
    const roll = Math.random();
    if (roll < 0.35) await orderFlow();
    else if (roll < 0.57) await apiPayment();
    else if (roll < 0.77) await cardUpdate();
    else if (roll < 0.9) await staffMove();
    else await openClaim();
  }
}

function luhnDigit(partial: string): string {
  let sum = 0;
  for (let i = 0; i < partial.length; i++) {
    let digit = Number(partial[partial.length - 1 - i]);
    if (i % 2 === 0) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return String((10 - (sum % 10)) % 10);
}

export async function runTraffic(instances: Instances, ledger: Ledger, tenants: ChaosTenants, running: () => boolean): Promise<void> {
  await Promise.all(Array.from({ length: WORKERS }, (_, id) => worker(id, instances, ledger, tenants, running)));
}
