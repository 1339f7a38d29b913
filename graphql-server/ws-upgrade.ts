/**
 * The HTTP half of a WebSocket: the node server's upgrades, answered here and handed to ws (made with `noServer`)
 * when accepted. Each one, accepted (101) or refused, writes one request line and one count in the HTTP histogram
 * through the same RequestLog as a request (docs/operations.md#request-logs), with its x-request-id echoed. When ws
 * took the server's upgrades itself it wrote its answers straight to the socket, and an operator saw neither the
 * sockets opened nor those refused. Each is a server span too, while tracing is on.
 *
 * Upgrades are rare beside requests (one per socket, which then lives for minutes), so this path is plain code.
 */
import { STATUS_CODES, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { WebSocketServer } from 'ws';
import { CLIENT_CLOSED_REQUEST, rawHeader } from '../src/http/node-request.ts';
import { requestIdOf, UNMATCHED_ROUTE, type RequestLog } from '../src/operations/request-log.ts';
import { ADDRESS_RETRY_AFTER_SECONDS, tooManyConnections, type AddressBudget } from '../src/kernel/address-budget.ts';
import { contextFromHeaders, SpanKind, SpanStatusCode, startSpan } from '../src/operations/tracing.ts';
import type { Span, SpanContext } from '@opentelemetry/api';
import { GRAPHQL_PATH } from './yoga-server.ts';

export interface UpgradeDoor {
  /** Where each upgrade's line and count go; none: upgrades are answered the same and written nowhere. */
  readonly requests?: Pick<RequestLog, 'finish'>;
  clientAddressOf?: (req: IncomingMessage) => string;
  allowsOrigin?: (origin: string | undefined) => boolean;
  /** MAX_CONNECTIONS_PER_ADDRESS: each open socket holds a place of its address's (address-budget.ts). */
  connections?: AddressBudget;
}

/** One upgrade being answered: ws's events about it find it by its request (ws calls them within handleUpgrade). */
interface Upgrade {
  readonly requestId: string;
  status: number;
}

/** The span of each upgrade that opened a socket, while its request is kept (ws-transport.ts reads it on connect). */
const openedBy = new WeakMap<IncomingMessage, SpanContext>();

/** The span of the upgrade that opened this socket (its request), when tracing is on: its operations link to it. */
export function upgradeSpanOf(req: IncomingMessage): SpanContext | undefined {
  return openedBy.get(req);
}

/**
 * Answers `server`'s upgrades: on /graphql, handed to `wsServer`, which emits `connection` for each socket it opens.
 * `close()`: every upgrade from then on is refused with 503 (shutdown; ws's own listeners are gone by then).
 */
export function answerUpgrades(server: Server, wsServer: WebSocketServer, door: UpgradeDoor): { close(): void } {
  let closing = false;
  const upgrades = new WeakMap<IncomingMessage, Upgrade>();
  wsServer.on('headers', (headers, req) => {
    const upgrade = upgrades.get(req);
    if (upgrade) headers.push(`x-request-id: ${upgrade.requestId}`);
  });
  // A handshake ws cannot read. With a listener here ws leaves the answer to it: another method is 405 and the rest
  // (Upgrade, Sec-WebSocket-Key, -Version, -Protocol or -Extensions unreadable) 400, ws's own statuses for them.
  wsServer.on('wsClientError', (error, socket, req) => {
    const upgrade = upgrades.get(req);
    if (!upgrade) return void socket.destroy();
    const versions = /Sec-WebSocket-Version/u.test(error.message) ? 'Sec-WebSocket-Version: 13, 8\r\n' : '';
    upgrade.status = refuse(socket, req.method === 'GET' ? 400 : 405, upgrade.requestId, error.message, versions);
  });

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const started = performance.now();
    const requestId = requestIdOf(rawHeader(req, 'x-request-id'));
    // Read before any answer: a socket ws destroys has no peer address any more.
    const client = door.requests || door.connections ? (door.clientAddressOf?.(req) ?? req.socket.remoteAddress ?? 'unknown') : '';
    const url = req.url ?? '/';
    const query = url.indexOf('?');
    const route = (query < 0 ? url : url.slice(0, query)) === GRAPHQL_PATH ? GRAPHQL_PATH : UNMATCHED_ROUTE;
    // docs/operations.md#tracing: the upgrade is a server span of its own (the caller's `traceparent` its parent).
    const span = startSpan(`${req.method ?? 'GET'} ${route}`, SpanKind.SERVER, { 'http.request.method': req.method ?? 'GET', 'http.route': route }, () => contextFromHeaders(req.headers));
    let status: number;
    if (closing) status = refuse(socket, 503, requestId);
    // ws's answer for another path, kept: 400.
    else if (route !== GRAPHQL_PATH) status = refuse(socket, 400, requestId);
    // CORS_ORIGINS holds for sockets too: an unlisted page's upgrade is refused before any work (docs/edge.md#cors).
    else if (door.allowsOrigin && !door.allowsOrigin(originOf(req))) status = refuse(socket, 403, requestId);
    // One address holding its bound of sockets and streams already: 429 before the handshake (docs/edge.md#bounds).
    else if (door.connections && !door.connections.take(client)) {
      status = refuse(socket, 429, requestId, tooManyConnections(door.connections.limit), `Retry-After: ${ADDRESS_RETRY_AFTER_SECONDS}\r\n`);
    } else {
      // Unless ws opens the socket or refuses it (wsClientError above), it destroys it unanswered: its client left.
      const upgrade: Upgrade = { requestId, status: CLIENT_CLOSED_REQUEST };
      upgrades.set(req, upgrade);
      wsServer.handleUpgrade(req, socket, head, (ws) => {
        upgrade.status = 101;
        if (span) openedBy.set(req, span.spanContext());
        if (door.connections) ws.once('close', () => door.connections!.give(client));
        wsServer.emit('connection', ws, req);
      });
      upgrades.delete(req);
      status = upgrade.status;
      // Refused by ws, or its client left during the handshake: the place goes back.
      if (status !== 101) door.connections?.give(client);
    }
    door.requests?.finish(requestId, req.method ?? 'GET', route, status, started, client);
    if (span) endUpgradeSpan(span, status);
  });
  // ws given the server heard its errors too (an `accept` failing with EMFILE, when the process runs out of files), and
  // graphql-ws closes its sockets on one: kept, and dropped on close as ws dropped it.
  const forwardError = (error: Error) => wsServer.emit('error', error);
  server.on('error', forwardError);
  return {
    close: () => {
      closing = true;
      server.off('error', forwardError);
    },
  };
}

/** The page's origin as ws reads it: `Sec-WebSocket-Origin` in the protocol's draft version 8, `Origin` since. */
function originOf(req: IncomingMessage): string | undefined {
  const origin = req.headers[req.headers['sec-websocket-version'] === '8' ? 'sec-websocket-origin' : 'origin'];
  return Array.isArray(origin) ? origin[0] : origin;
}

/** Writes the refusal `status` on the upgrade's socket and closes it, as ws does; answers the status. */
function refuse(socket: Duplex, status: number, requestId: string, body = STATUS_CODES[status] ?? '', headers = ''): number {
  // An upgraded socket has no error listener left (node removes its own): a reset would otherwise throw.
  socket.on('error', () => socket.destroy());
  socket.once('finish', () => socket.destroy());
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nx-request-id: ${requestId}\r\n${headers}\r\n${body}`,
  );
  return status;
}

/** The upgrade's span, with the status it was answered (101 when the socket opened), an error when 5xx. */
function endUpgradeSpan(span: Span, status: number): void {
  span.setAttribute('http.response.status_code', status);
  if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
  span.end();
}
