/**
 * What the chaos clients were told. A success is a promise the server made; an answer that never came (the process
 * was killed) is "maybe": the check accepts either outcome for it, never a loss of a success.
 */
export type Outcome = 'ok' | 'maybe' | 'refused';

export interface OrderEntry {
  orderNumber: string;
  payToken: string;
  /** The client was told the order is paid (200 from pay). */
  paid: boolean;
  /** The furthest status staff were told they moved it to. */
  advancedTo: 'in progress' | 'ready' | null;
}

export interface CardUpdate {
  /** MMYY, as /token-updated writes `card.expiration`. */
  expiration: string;
  outcome: Outcome;
}

export class Ledger {
  readonly orders = new Map<string, OrderEntry>();
  /** /api/payments answered 201: id → status told. */
  readonly payments = new Map<string, string>();
  /** Per vault token, its site and every update tried on it, in order (one worker owns a token). */
  readonly cards = new Map<string, { site: string; number: string; initial: string; updates: CardUpdate[] }>();
  /** Orders a claim may be opened on: sleeve orders paid, and `/api/payments` orderIds that succeeded. */
  readonly claimable: string[] = [];
  /** Claims staff were told are open: claimId → the order's id. */
  readonly claims = new Map<string, string>();
  readonly counts = { requests: 0, unanswered: 0, ordersPaid: 0, apiPayments: 0, cardUpdates: 0, staffMoves: 0, claims: 0 };

  /** The expirations the vault may hold now for a token: the last confirmed one, or any tried after it. */
  allowedExpirations(token: string): Set<string> {
    const card = this.cards.get(token)!;
    let lastOk = -1;
    card.updates.forEach((u, i) => {
      if (u.outcome === 'ok') lastOk = i;
    });
    const allowed = new Set([lastOk >= 0 ? card.updates[lastOk]!.expiration : card.initial]);
    for (const update of card.updates.slice(lastOk + 1)) if (update.outcome === 'maybe') allowed.add(update.expiration);
    return allowed;
  }
}
