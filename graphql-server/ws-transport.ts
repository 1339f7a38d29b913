/**
 * GraphQL over WebSocket (the graphql-transport-ws protocol of graphql-ws) on the same server and path as HTTP.
 * Every operation goes through yoga's envelop pipeline (`getEnveloped`), so the plugins, context factory,
 * masking and query limits are the same as over HTTP. Staff auth comes from `connectionParams.authorization`;
 * a wrong token gives an anonymous viewer (staff fields then refuse), never a closed socket.
 *
 * graphql-ws has no params step, so yoga's trusted-documents plugins never see a Subscribe message: the same
 * TrustedDocuments settles it here first (a hash in extensions.persistedQuery with an empty `query`, which the
 * protocol requires to be a string; or text, when this caller may send text), with the same errors as over HTTP
 * (docs/graphql.md#trusted-documents). With GRAPHQL_PRODUCTION, validation refuses introspection as over HTTP
 * (the plugin runs inside `validate`), and suggestions are cut from results here (docs/graphql.md#production).
 *
 * Each operation's context carries a writer of its `next` messages (WRITE_NEXT_NOW): the hold ticks are written with
 * it, past graphql-ws's loop, while graphql-ws waits for the stream (docs/graphql.md#the-tick-path).
 */
import type { Server } from 'node:http';
import { GraphQLError, type ExecutionArgs } from 'graphql';
import type { ConnectionInitMessage } from 'graphql-ws';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocket, WebSocketServer } from 'ws';
import { JSON_TOO_DEEP_MESSAGE, jsonValueTooDeep } from '../src/kernel/json-depth.ts';
import { authorizationOf } from './context-factory.ts';
import { tooManyStreams, type AddressBudget } from '../src/kernel/address-budget.ts';
import { MAX_OPERATIONS_PER_CONNECTION, TOO_MANY_OPERATIONS_CODE, TOO_MANY_OPERATIONS_MESSAGE } from './operation-bounds.ts';
import type { TrustedDocuments } from './trusted-documents.ts';
import { parseFailed, withoutHttpExtensions } from './socket-errors.ts';
import { WRITE_NEXT_NOW, type WriteNextNow } from './use-compiled-subscriptions.ts';
import type { ProductionHardening } from './use-production-hardening.ts';
import { answerUpgrades, upgradeSpanOf, type UpgradeDoor } from './ws-upgrade.ts';
import type { SpanContext } from '@opentelemetry/api';
import type { GraphQLYoga } from './yoga-server.ts';

export interface WebSocketTransport {
  /** Closes every client with 1001 "Going away", then the WebSocket server; upgrades from then on get 503. */
  dispose(): Promise<void>;
  clients(): number;
}

type EnvelopedRoot = {
  execute: (args: ExecutionArgs) => unknown;
  subscribe: (args: ExecutionArgs) => unknown;
};

export interface WebSocketOptions {
  keepAliveMs?: number;
  /**
   * The largest message, in bytes (MAX_BODY_BYTES): a larger one closes its socket with 1009 as soon as its frame
   * header announces the length, before any of it is buffered or parsed, authenticated or not (docs/edge.md#bounds;
   * ws's own default, 100 MiB, let 20 clients of 50 MB take the process to 1.9 GB).
   */
  maxPayload?: number;
}

export function attachWebSocket(
  server: Server,
  door: {
    readonly yoga: GraphQLYoga;
    readonly trusted: TrustedDocuments;
    readonly hardening: ProductionHardening;
    /** MAX_STREAMS_PER_ADDRESS (use-stream-budget.ts takes the places): a full address is refused here first. */
    readonly streams?: AddressBudget;
  } & UpgradeDoor,
  { keepAliveMs = 12_000, maxPayload = 1_048_576 }: WebSocketOptions = {},
): WebSocketTransport {
  // The server's upgrades are answered, logged and counted in ws-upgrade.ts, which hands /graphql's to this one.
  const wsServer = new WebSocketServer({ noServer: true, maxPayload });
  const upgrades = answerUpgrades(server, wsServer, door);
  // `extra` is graphql-ws's own per-socket object: the client address is kept there once read.
  const graphqlWs = useServer<ConnectionInitMessage['payload'], { clientAddress: string; upgradeSpan?: SpanContext }>(
    {
      onConnect: (ctx) => {
        // Read from the upgrade request once (docs/edge.md#client-address: TRUST_PROXY).
        const { request } = ctx.extra;
        ctx.extra.clientAddress = door.clientAddressOf?.(request) ?? request.socket.remoteAddress ?? 'unknown';
        const upgradeSpan = upgradeSpanOf(request);
        if (upgradeSpan) ctx.extra.upgradeSpan = upgradeSpan;
        // graphql-ws keeps the upgrade request for the socket's whole life, and nothing here reads it again: let it
        // go, with its headers and stream state, for each of thousands of open sockets (docs/graphql.md#what-one-subscriber-costs).
        Reflect.deleteProperty(ctx.extra, 'request');
      },
      execute: (args) => (args.rootValue as EnvelopedRoot).execute(args) as never,
      subscribe: (args) => (args.rootValue as EnvelopedRoot).subscribe(args) as never,
      onSubscribe: async (ctx, id, payload) => {
        // A bad operation fails alone: returning errors answers `error` for this id and keeps the socket and its
        // other subscriptions; a throw here would close the whole socket with 4500 (docs/edge.md#bounds).
        // graphql-ws has put this one among the socket's subscriptions already: past the bound, it alone is refused.
        if (Object.keys(ctx.subscriptions).length > MAX_OPERATIONS_PER_CONNECTION) return [new GraphQLError(TOO_MANY_OPERATIONS_MESSAGE, { extensions: { code: TOO_MANY_OPERATIONS_CODE } })];
        // An address at its bound: refused before its document is even looked up. A flood of 100,000 subscribes from
        // one address otherwise cost each its parse, validation and context (85 µs each, 8.5 s of a stalled process).
        if (door.streams?.full(ctx.extra.clientAddress ?? 'unknown')) return [new GraphQLError(tooManyStreams(door.streams.limit), { extensions: { code: TOO_MANY_OPERATIONS_CODE } })];
        const source = door.trusted.resolve(payload.query, payload.extensions, authorizationOf({ connectionParams: ctx.connectionParams }));
        if (typeof source !== 'string') return [source];
        const enveloped = door.yoga.getEnveloped({
          connectionParams: ctx.connectionParams,
          clientAddress: ctx.extra.clientAddress ?? 'unknown',
          upgradeSpan: ctx.extra.upgradeSpan,
          params: { ...payload, query: source },
        } as never);
        if (jsonValueTooDeep(payload.variables)) return [new GraphQLError(JSON_TOO_DEEP_MESSAGE)];
        let document;
        let errors: readonly GraphQLError[];
        try {
          document = enveloped.parse(source);
        } catch (error) {
          // yoga codes a syntax error (and the token limit's) GRAPHQL_PARSE_FAILED only when there is an HTTP request.
          if (error instanceof GraphQLError) return [parseFailed(error)];
          throw error;
        }
        try {
          // GraphQL Armor's alias, depth and cost rules throw their refusal rather than report it.
          errors = enveloped.validate(enveloped.schema, document);
        } catch (error) {
          if (error instanceof GraphQLError) return [error]; // a query limit's refusal
          throw error;
        }
        if (errors.length > 0) return [...errors];
        const contextValue = await enveloped.contextFactory();
        (contextValue as { [WRITE_NEXT_NOW]?: WriteNextNow })[WRITE_NEXT_NOW] = nextWriter(ctx.extra.socket, id, ctx.subscriptions);
        return {
          schema: enveloped.schema,
          document,
          operationName: payload.operationName ?? null,
          variableValues: payload.variables ?? null,
          contextValue,
          rootValue: { execute: enveloped.execute, subscribe: enveloped.subscribe },
        };
      },
      // A variable's coercion error (graphql-js runs subscriptions) may suggest names: cut when in production.
      // An error's extensions.http is for an HTTP answer, and goes no further than this (socket-errors.ts).
      onNext: (_ctx, _id, _payload, _args, result) => {
        if (door.hardening.on) door.hardening.hideSuggestions(result.errors);
        if (result.errors) return { ...result, errors: withoutHttpExtensions(result.errors) };
      },
      onError: (_ctx, _id, _payload, errors) => withoutHttpExtensions(errors),
    },
    wsServer,
    keepAliveMs,
  );
  // Once: ws's close() of a server already closed fails ("The server is not running").
  let disposed: Promise<void> | undefined;
  return {
    async dispose() {
      upgrades.close();
      await (disposed ??= Promise.resolve(graphqlWs.dispose()));
    },
    clients: () => wsServer.clients.size,
  };
}

/**
 * Above this many bytes waiting in a socket's buffer, events go graphql-ws's way again, which waits for each write:
 * a slow reader then gets the newest tick, not every tick queued (LatestStream).
 */
const WRITE_NOW_BUFFER_LIMIT = 64 * 1024;

/**
 * Writes subscription `id`'s next message at once, as graphql-ws's `emit.next` writes it: the same fields in the same
 * order (`{"id","type":"next","payload"}`), for a result without errors (use-compiled-subscriptions.ts). Not while
 * the socket is backed up or closing, nor once the subscription has completed.
 */
function nextWriter(socket: WebSocket, id: string, subscriptions: Readonly<Record<string, unknown>>): WriteNextNow {
  const head = `{"id":${JSON.stringify(id)},"type":"next","payload":`;
  // This subscription's stream as graphql-ws holds it, taken at the first write (graphql-ws is reading it by then):
  // after a `complete`, the client may subscribe again under the same id, and that stream is not this one.
  let stream: unknown;
  return (result) => {
    if (socket.readyState !== WebSocket.OPEN || socket.bufferedAmount > WRITE_NOW_BUFFER_LIMIT) return false;
    const current = subscriptions[id];
    stream ??= current;
    if (current == null || current !== stream) return false;
    socket.send(`${head}${JSON.stringify(result)}}`);
    return true;
  };
}
