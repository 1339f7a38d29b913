/**
 * The card vault's use cases (document 3 tokenization, docs/platform.md#tokens): tokenize, detokenize, card update, the pay
 * page's order-bound tokens and sandbox wallet confirmations; upgrade and network tokens are network-tokens.ts. Tokens are random, stored as a hash; card data is sealed.
 */
import { cardInfo, expiryProblem, maskedNumber, type CardData, type CardInfo } from './card-data.ts';
import { DomainError } from '../kernel/errors.ts';
import type { Order } from '../orders/order.ts';
import { isUniqueViolation, type Db } from '../db/database.ts';
import * as vault from './vault-repository.ts';
import { announceQueued, queueNotification, type Queued } from '../notifications/outbox-service.ts';
import type { VaultCrypto } from './vault-crypto.ts';
import { hashToken, randomToken } from '../kernel/tokens.ts';
import type { ServiceDeps } from '../kernel/service-deps.ts';
import { createNetworkTokens, type NetworkTokens } from './network-token-service.ts';
import { createCvcRetention, type CvcRetention } from './cvc-retention-service.ts';
// Other suites read the provisioning delay from here (test/notifications/triggers.test.ts).
export { NETWORK_TOKEN_DELAY_MS } from './network-token-service.ts';
import type { Site } from '../sites/site-service.ts';
import { networkTokenOf, tokenUpdatedBody, toTokenView, type SealedCard, type TokenView } from './token-view.ts';
import { parseCard, parseTokenize, parseTokenReference, type TokenReference } from './token-input.ts';
import { transaction } from '../db/transaction.ts';

export interface Tokenized {
  token: string;
  cardInfo: CardInfo;
}

export interface TokenizationService extends NetworkTokens, CvcRetention {
  tokenize(site: Site, body: unknown): Promise<Tokenized>;
  detokenize(site: Site, body: unknown): Promise<Record<string, unknown>>;
  updateCard(site: Site, body: unknown): Promise<CardData>;
  /** Vaults a card given inline to /api/payments: in no site's scope (no alias, no card update), used once. */
  vaultCard(trx: Db, card: CardData, cvc: string | null): Promise<Tokenized>;
  /** A single-use card token bound to one held sleeve order (the pay page; the caller checked the payToken). */
  tokenizeForOrder(order: Order, body: unknown): Promise<Tokenized>;
  /** A sandbox wallet confirmation token, for one held sleeve order or for a site's /api/payments. */
  walletConfirmation(scope: { order: Order } | { siteId: string }): Promise<string>;
  /** Staff: masked card info, network token status, aliases; null when unknown. */
  info(token: string): Promise<TokenView | null>;
  /** As info, from the hash the vault keeps of the token (TokenView.tokenHash); null when unknown or not a hash. */
  infoByHash(hash: string): Promise<TokenView | null>;
}

/** The shape of hashToken's output (a SHA-256 in lowercase hex): anything else names no token. */
export const TOKEN_HASH = /^[0-9a-f]{64}$/u;

export function createTokenizationService(deps: ServiceDeps & { crypto: VaultCrypto }): TokenizationService {
  const { database, clock, bus, crypto } = deps;
  const { db } = database;
  const open = (row: vault.VaultTokenRow) => JSON.parse(crypto.open(row.sealed)) as SealedCard;

  async function store(
    scope: { siteId: string | null; orderNumber: number | null },
    input: ReturnType<typeof parseTokenize>,
    trx?: Db,
  ): Promise<Tokenized> {
    const token = `tok_${randomToken(24)}`;
    const info = cardInfo(input.card);
    const now = clock.now();
    const sealed: SealedCard = { token, cardNumber: input.card.cardNumber, cardHolderName: input.card.cardHolderName };
    try {
      // Token and aliases together: in the caller's transaction, or in one of their own.
      const insert = (into: Db) =>
        vault.insertToken(
          into,
          {
            token_hash: hashToken(token),
            kind: 'card',
            site_id: scope.siteId,
            order_number: scope.orderNumber,
            sealed: crypto.seal(JSON.stringify(sealed)),
            fingerprint: crypto.fingerprint(input.card.cardNumber),
            bin: info.bin,
            last_four: info.lastFourDigits,
            brand: info.cardBrand,
            exp_month: info.expirationMonth,
            exp_year: info.expirationYear,
            cvc_sealed: input.cvc ? crypto.seal(input.cvc) : null,
            extra: input.extra ? JSON.stringify(input.extra) : null,
            customer_id: input.customerId ? JSON.stringify(input.customerId) : null,
            multi_use: 0,
            network_token_status: 'NONE',
            created_at: now,
            updated_at: now,
          },
          input.aliases,
        );
      await (trx ? insert(trx) : transaction(db, insert));
    } catch (error) {
      if (isUniqueViolation(error)) throw new DomainError('bad_request', 'A token alias with that key and value already exists.', { field: 'tokenAliases' });
      throw error;
    }
    return { token, cardInfo: info };
  }

  async function resolve(site: Site, ref: TokenReference): Promise<vault.VaultTokenRow> {
    const row = 'token' in ref ? await vault.findToken(db, hashToken(ref.token)) : await vault.findTokenByAlias(db, site.siteId, ref.alias.key, ref.alias.value);
    // Another site's token is as unknown as a made-up one.
    if (!row || row.site_id !== site.siteId || row.kind !== 'card') throw new DomainError('bad_request', 'No token matches that reference.', { field: 'token' });
    return row;
  }

  /** Only a held order takes a new token; a paid one answers as pay does, a cancelled one 409. */
  function payableNumber(order: Order): number {
    if (order.status === 'cancelled') throw new DomainError('cancelled', `Order ${order.orderNumber} is cancelled and can no longer be paid.`);
    if (order.status !== 'awaiting payment') throw new DomainError('bad_request', `Order ${order.orderNumber} is already paid; nothing more is charged.`);
    return Number(order.orderNumber);
  }

  /** What staff see of the token with this hash: never the token itself, which only the sealed column holds. */
  async function viewByHash(hash: string): Promise<TokenView | null> {
    const row = await vault.findToken(db, hash);
    if (!row) return null;
    return toTokenView(row, open(row), await vault.aliasesOf(db, row.token_hash));
  }

  const network = createNetworkTokens({ db, clock, bus, resolve, tokenOf: (row) => open(row).token, seal: (plaintext) => crypto.seal(plaintext) });

  return {
    ...network,
    ...createCvcRetention(deps),
    tokenize: (site, body) => store({ siteId: site.siteId, orderNumber: null }, parseTokenize(body)),

    vaultCard: (trx, card, cvc) => store({ siteId: null, orderNumber: null }, { card, cvc, aliases: [], extra: null, customerId: null }, trx),

    tokenizeForOrder(order, body) {
      const input = parseTokenize(body);
      const orderNumber = payableNumber(order); // a paid or cancelled order says so before the card's expiry is judged
      const expired = expiryProblem(input.card, clock.now());
      if (expired) throw new DomainError('validation_failed', expired.message, { field: expired.field });
      return store({ siteId: null, orderNumber }, { ...input, aliases: [], extra: null, customerId: null });
    },

    async walletConfirmation(scope) {
      const orderNumber = 'order' in scope ? payableNumber(scope.order) : null;
      const token = `wct_${randomToken(24)}`;
      const now = clock.now();
      await vault.insertToken(
        db,
        {
          token_hash: hashToken(token),
          kind: 'wallet',
          site_id: 'siteId' in scope ? scope.siteId : null,
          order_number: orderNumber,
          sealed: crypto.seal(JSON.stringify({ token } satisfies SealedCard)),
          multi_use: 0,
          network_token_status: 'NONE',
          created_at: now,
          updated_at: now,
        },
        [],
      );
      return token;
    },

    async detokenize(site, body) {
      const row = await resolve(site, parseTokenReference(body));
      const sealed = open(row);
      const aliases = await vault.aliasesOf(db, row.token_hash);
      // Document 3 §2 "Full card data"; the CVC is never returned (it is erased after its payment).
      return {
        cardNumber: sealed.cardNumber,
        expirationMonth: Number(row.exp_month),
        expirationYear: Number(row.exp_year),
        cardHolderName: sealed.cardHolderName,
        ...(row.extra ? { extra: JSON.parse(row.extra) } : {}),
        ...(aliases.length > 0 ? { tokenAliases: Object.fromEntries(aliases.map((a) => [a.key, a.value])) } : {}),
        ...(row.customer_id ? { customerId: JSON.parse(row.customer_id) } : {}),
      };
    },

    async updateCard(site, body) {
      const card = parseCard(body);
      // Matched under every known key: while a VAULT_KEY rotation is under way, a token not yet re-hashed carries the
      // previous key's fingerprint (docs/operations.md#rotating-vault_key). Each token updated is re-hashed and
      // re-sealed under the current key together, so its fingerprint always belongs to the key that sealed it.
      const fingerprints = crypto.fingerprints(card.cardNumber);
      const queued = await transaction(db, async (trx) => {
        // Compared inside the transaction, on rows locked for it: read before it, a concurrent update of the same card
        // could commit in between, and this change would commit with no /token-updated for it. The time is read
        // once the rows are ours, so notifications of one card are stamped in the order their changes commit.
        const rows = await vault.tokensOfCard(trx, site.siteId, fingerprints, database.caps.multipleConnections);
        if (rows.length === 0) throw new DomainError('bad_request', 'No token holds a card with that number.', { field: 'cardNumber' });
        const now = clock.now();
        const queued: Queued[] = [];
        for (const row of rows) {
          const sealed = open(row);
          await vault.updateToken(trx, row.token_hash, {
            exp_month: card.expirationMonth,
            exp_year: card.expirationYear,
            sealed: crypto.seal(JSON.stringify({ ...sealed, cardHolderName: card.cardHolderName })),
            fingerprint: crypto.fingerprint(card.cardNumber),
            // A network token provisioned before migration 0011 is still in the clear: the row is being rewritten
            // under the current key anyway, so it leaves with its network token sealed too.
            ...(row.network_token !== null ? { network_token: null, network_token_sealed: crypto.seal(row.network_token) } : {}),
            updated_at: now,
          });
          const updatedFields: Record<string, string> = {};
          if (Number(row.exp_month) !== card.expirationMonth) updatedFields.expirationMonth = String(card.expirationMonth);
          if (Number(row.exp_year) !== card.expirationYear) updatedFields.expirationYear = String(card.expirationYear);
          if (Object.keys(updatedFields).length === 0) continue;
          const updated = { ...row, exp_month: card.expirationMonth, exp_year: card.expirationYear };
          const secrets = { token: sealed.token, networkToken: networkTokenOf(row, (value) => crypto.open(value)) };
          const body = tokenUpdatedBody(secrets, updated, 'ACCOUNT_UPDATER', updatedFields, now);
          queued.push(await queueNotification(trx, '/token-updated', body, { subject: sealed.token, now: now, site: site.siteId }));
        }
        return queued;
      });
      announceQueued(bus, queued);
      // docs/platform.md#card-data-at-rest: only detokenize returns the full number; the echo masks it.
      return { ...card, cardNumber: maskedNumber(cardInfo(card), card.cardNumber.length) };
    },

    info: (token) => viewByHash(hashToken(token)),

    infoByHash: (hash) => (TOKEN_HASH.test(hash) ? viewByHash(hash) : Promise.resolve(null)),
  };
}
