/**
 * GraphQL over WebSocket (the graphql-transport-ws protocol of graphql-ws) on the same server and path as HTTP.
 * Every operation goes through yoga's envelop pipeline (`getEnveloped`), so the plugins, context factory,
 * masking and query limits are the same as over HTTP. Staff auth comes from `connectionParams.authorization`;
 * a wrong token gives an anonymous viewer (staff fields then refuse), never a closed socket.
 */
import type { IncomingMessage, Server } from 'node:http';
import { GraphQLError, type ExecutionArgs } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import { JSON_TOO_DEEP_MESSAGE, jsonValueTooDeep } from '../src/kernel/json-depth.ts';
import { GRAPHQL_PATH, type GraphQLYoga } from './yoga-server.ts';

export interface WebSocketTransport {
  /** Closes every client with 1001 "Going away", then the WebSocket server. */
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
  door: { readonly yoga: GraphQLYoga; clientAddressOf?: (req: IncomingMessage) => string; allowsOrigin?: (origin: string | undefined) => boolean },
  { keepAliveMs = 12_000, maxPayload = 1_048_576 }: WebSocketOptions = {},
): WebSocketTransport {
  const wsServer = new WebSocketServer({
    server,
    path: GRAPHQL_PATH,
    maxPayload,
    // CORS_ORIGINS holds for sockets too: an unlisted page's upgrade is refused (403) before any work (docs/edge.md#cors).
    ...(door.allowsOrigin
      ? { verifyClient: ({ origin }: { origin?: string }, done: (ok: boolean, code?: number) => void) => done(door.allowsOrigin!(origin), 403) }
      : {}),
  });
  const graphqlWs = useServer(
    {
      execute: (args) => (args.rootValue as EnvelopedRoot).execute(args) as never,
      subscribe: (args) => (args.rootValue as EnvelopedRoot).subscribe(args) as never,
      onSubscribe: async (ctx, _id, payload) => {
        const enveloped = door.yoga.getEnveloped({
          connectionParams: ctx.connectionParams,
          // The server's reading of the upgrade request (docs/edge.md#client-address: TRUST_PROXY).
          clientAddress: door.clientAddressOf?.(ctx.extra.request) ?? ctx.extra.request.socket.remoteAddress ?? 'unknown',
          params: payload,
        } as never);
        // A bad operation fails alone: returning errors answers `error` for this id and keeps the socket and its
        // other subscriptions; a throw here would close the whole socket with 4500 (docs/edge.md#bounds).
        if (jsonValueTooDeep(payload.variables)) return [new GraphQLError(JSON_TOO_DEEP_MESSAGE)];
        let document;
        try {
          document = enveloped.parse(payload.query);
        } catch (error) {
          if (error instanceof GraphQLError) return [error]; // a syntax error, or a query limit's refusal
          throw error;
        }
        const errors = enveloped.validate(enveloped.schema, document);
        if (errors.length > 0) return errors;
        return {
          schema: enveloped.schema,
          document,
          operationName: payload.operationName ?? null,
          variableValues: payload.variables ?? null,
          contextValue: await enveloped.contextFactory(),
          rootValue: { execute: enveloped.execute, subscribe: enveloped.subscribe },
        };
      },
    },
    wsServer,
    keepAliveMs,
  );
  return {
    async dispose() {
      await graphqlWs.dispose();
    },
    clients: () => wsServer.clients.size,
  };
}
