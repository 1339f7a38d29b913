/**
 * GraphQL over WebSocket (the graphql-transport-ws protocol of graphql-ws) on the same server and path as HTTP.
 * Every operation goes through yoga's envelop pipeline (`getEnveloped`), so the plugins, context factory,
 * masking and query limits are the same as over HTTP. Staff auth comes from `connectionParams.authorization`;
 * a wrong token gives an anonymous viewer (staff fields then refuse), never a closed socket.
 */
import type { Server } from 'node:http';
import type { ExecutionArgs } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
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

export function attachWebSocket(server: Server, door: { readonly yoga: GraphQLYoga }, { keepAliveMs = 12_000 } = {}): WebSocketTransport {
  const wsServer = new WebSocketServer({ server, path: GRAPHQL_PATH });
  const graphqlWs = useServer(
    {
      execute: (args) => (args.rootValue as EnvelopedRoot).execute(args) as never,
      subscribe: (args) => (args.rootValue as EnvelopedRoot).subscribe(args) as never,
      onSubscribe: async (ctx, _id, payload) => {
        const enveloped = door.yoga.getEnveloped({
          connectionParams: ctx.connectionParams,
          clientAddress: ctx.extra.request.socket.remoteAddress ?? 'unknown',
          params: payload,
        } as never);
        const document = enveloped.parse(payload.query);
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
