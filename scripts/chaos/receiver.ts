/**
 * The merchants' endpoints for the chaos run, all on one local server: the bootstrap site's `MERCHANT_ENDPOINT` is its
 * root, and each endpoint registered through `POST /v1/webhooks/endpoints` is a prefix of it (`/m-all`, …), to which
 * the gateway appends the notification's path. Per endpoint it records each `webhook-id` answered 200 (and how often)
 * and the bodies; a registered endpoint's signatures are checked with the public `standardwebhooks` library and its
 * secret, and an endpoint registered with `failFirst` answers 500 to the first attempt of every message, so each of
 * its deliveries needs a retry, across the kills.
 */
import { createServer } from 'node:http';
import { Webhook } from 'standardwebhooks';

/** What one endpoint was sent. */
export interface EndpointInbox {
  /** webhook-id → times answered 200. */
  seen: Map<string, number>;
  /** /token-updated bodies by token, in order of their `timestamp`. */
  tokenUpdates(): Map<string, Array<{ expiration: string; timestamp: number }>>;
}

export interface ChaosReceiver {
  url: string;
  /** Routes `url + prefix + /path` to an inbox of its own (signatures checked with `secret`). */
  register(prefix: string, options: { secret: string; failFirst?: boolean }): void;
  /**
   * The endpoint's secret was rotated to `secret` (the answer just came): every request to it signed from two seconds
   * on must verify with the new secret, as a merchant who switched at once expects; one signed before, with either.
   */
  rotated(prefix: string, secret: string): void;
  /** The inbox of the endpoint at `url + prefix` ('' for the root, the bootstrap site's `MERCHANT_ENDPOINT`). */
  at(prefix: string): EndpointInbox;
  /** Requests whose signature did not verify with their endpoint's secret, as `prefix: reason`. */
  badSignatures: string[];
  reset(): void;
  close(): Promise<void>;
}

interface Inbox extends EndpointInbox {
  bodies: Array<{ path: string; body: any }>;
  /** The endpoint's secrets, oldest first; a request verifies with the newest, or any within `overlapUntil`. */
  verifiers: Webhook[];
  overlapUntil: number;
  failFirst: boolean;
  failed: Set<string>;
}

function inbox(secret: string | null, failFirst = false): Inbox {
  const bodies: Array<{ path: string; body: any }> = [];
  return {
    seen: new Map(),
    bodies,
    verifiers: secret === null ? [] : [new Webhook(secret)],
    overlapUntil: 0,
    failFirst,
    failed: new Set(),
    tokenUpdates() {
      const byToken = new Map<string, Array<{ expiration: string; timestamp: number }>>();
      for (const { path, body } of bodies) {
        if (path !== '/token-updated') continue;
        const list = byToken.get(body.token) ?? [];
        list.push({ expiration: body.card.expiration, timestamp: Number(body.timestamp) });
        byToken.set(body.token, list);
      }
      for (const list of byToken.values()) list.sort((a, b) => a.timestamp - b.timestamp);
      return byToken;
    },
  };
}

/** Why a request's `webhook-signature` does not verify at `box` now, or null when it does (or `box` checks none). */
function signatureFault(box: Inbox, raw: string, headers: Record<string, string>): string | null {
  if (box.verifiers.length === 0) return null;
  // By when it was signed (`webhook-timestamp`, whole seconds), not when it arrived: an attempt signed before the
  // rotation may arrive after it.
  const signedAt = Number(headers['webhook-timestamp']) * 1000;
  const candidates = signedAt < box.overlapUntil ? box.verifiers : box.verifiers.slice(-1);
  let fault = '';
  for (const verifier of candidates) {
    try {
      verifier.verify(raw, headers);
      return null;
    } catch (error) {
      fault = (error as Error).message;
    }
  }
  return candidates.length < box.verifiers.length ? `not signed with the newest secret: ${fault}` : fault;
}

export async function startReceiver(): Promise<ChaosReceiver> {
  let inboxes = new Map<string, Inbox>([['', inbox(null)]]);
  const badSignatures: string[] = [];
  const route = (url: string): [string, Inbox] => {
    const prefix = `/${url.split('/')[1] ?? ''}`;
    const registered = inboxes.get(prefix);
    return registered ? [url.slice(prefix.length), registered] : [url, inboxes.get('')!];
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const [path, box] = route(req.url ?? '/');
      const id = String(req.headers['webhook-id'] ?? '');
      const raw = Buffer.concat(chunks).toString('utf8');
      const fault = signatureFault(box, raw, req.headers as Record<string, string>);
      if (fault) badSignatures.push(`${req.url} (${id}): ${fault}`);
      if (box.failFirst && !box.failed.has(id)) {
        box.failed.add(id);
        res.writeHead(500).end('first attempt refused');
        return;
      }
      box.seen.set(id, (box.seen.get(id) ?? 0) + 1);
      try {
        box.bodies.push({ path, body: JSON.parse(raw) });
      } catch {
        // not JSON: counted by id all the same
      }
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    register(prefix, { secret, failFirst = false }) {
      inboxes.set(prefix, inbox(secret, failFirst));
    },
    rotated(prefix, secret) {
      const box = inboxes.get(prefix)!;
      box.verifiers.push(new Webhook(secret));
      box.overlapUntil = Date.now() + 2_000;
    },
    at(prefix) {
      const found = inboxes.get(prefix);
      if (!found) throw new Error(`no endpoint registered at ${prefix}`);
      return found;
    },
    badSignatures,
    reset() {
      inboxes = new Map([['', inbox(null)]]);
      badSignatures.length = 0;
    },
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}
