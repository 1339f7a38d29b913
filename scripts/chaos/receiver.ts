/**
 * The merchants' endpoints for the chaos run, all on one local server: the bootstrap site's `MERCHANT_ENDPOINT` is its
 * root, and each endpoint registered through `POST /v1/webhooks/endpoints` is a prefix of it (`/m-all`, …), to which
 * the gateway appends the notification's path. Per endpoint it records each `webhook-id` answered 200 (and how often)
 * and the bodies; every request's signature is checked with the public `standardwebhooks` library and its endpoint's
 * secret (the root's is `whsec_` + base64 of `MERCHANT_SIGNING_KEY`, README "Verifying a notification"), and an
 * endpoint registered with `failFirst` answers 500 to the first attempt of every message, so each of its deliveries
 * needs a retry, across the kills.
 */
import { createHmac } from 'node:crypto';
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
  secrets: Secret[];
  overlapUntil: number;
  failFirst: boolean;
  failed: Set<string>;
}

/** One `whsec_…` secret: its `standardwebhooks` verifier, and its key for document 2's own `signature` header. */
interface Secret {
  webhook: Webhook;
  key: Buffer;
}

const secretOf = (secret: string): Secret => ({ webhook: new Webhook(secret), key: Buffer.from(secret.slice('whsec_'.length), 'base64') });

function inbox(secret: string, failFirst = false): Inbox {
  const bodies: Array<{ path: string; body: any }> = [];
  return {
    seen: new Map(),
    bodies,
    secrets: [secretOf(secret)],
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

/**
 * Why a request to `box` does not verify now, or null when it does: its `webhook-signature`, and on `/token-updated`
 * document 2's `signature` too (hex HMAC-SHA256 of the body, one value per secret, README "Verifying a notification").
 */
function signatureFault(box: Inbox, path: string, raw: string, headers: Record<string, string>): string | null {
  // By when it was signed (`webhook-timestamp`, whole seconds), not when it arrived: an attempt signed before the
  // rotation may arrive after it.
  const signedAt = Number(headers['webhook-timestamp']) * 1000;
  const candidates = signedAt < box.overlapUntil ? box.secrets : box.secrets.slice(-1);
  let fault = '';
  for (const { webhook, key } of candidates) {
    try {
      webhook.verify(raw, headers);
    } catch (error) {
      fault = (error as Error).message;
      continue;
    }
    if (path !== '/token-updated' || (headers.signature ?? '').split(' ').includes(createHmac('sha256', key).update(raw).digest('hex'))) return null;
    fault = `webhook-signature verified, but no value of its signature header did`;
  }
  return candidates.length < box.secrets.length ? `not signed with the newest secret: ${fault}` : fault;
}

/** `rootSecret`: the bootstrap endpoint's, `whsec_` + base64 of the instances' `MERCHANT_SIGNING_KEY`. */
export async function startReceiver(rootSecret: string): Promise<ChaosReceiver> {
  let inboxes = new Map<string, Inbox>([['', inbox(rootSecret)]]);
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
      const fault = signatureFault(box, path, raw, req.headers as Record<string, string>);
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
      box.secrets.push(secretOf(secret));
      box.overlapUntil = Date.now() + 2_000;
    },
    at(prefix) {
      const found = inboxes.get(prefix);
      if (!found) throw new Error(`no endpoint registered at ${prefix}`);
      return found;
    },
    badSignatures,
    reset() {
      inboxes = new Map([['', inbox(rootSecret)]]);
      badSignatures.length = 0;
    },
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}
