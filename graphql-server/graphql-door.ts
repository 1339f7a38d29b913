/**
 * The GraphQL door, put together: yoga (yoga-server.ts) with the per-request context (context-factory.ts) and the
 * document cache, the fast JSON path beside it (fast-path.ts), and the two ways in — a Fetch handler (the in-memory
 * gateway) and a node:http handler (node-handler.ts). WebSocket comes in through ws-transport.ts.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { GraphQLSchema } from 'graphql';
import { CorsPolicy } from '../src/kernel/cors.ts';
import type { Logger } from '../src/kernel/logger.ts';
import type { RateLimiter } from '../src/kernel/rate-limiter.ts';
import type { Services } from '../src/services.ts';
import { createContextFactory } from './context-factory.ts';
import { createDocumentCache } from './document-cache.ts';
import { FastJsonPath } from './fast-path.ts';
import { tooLarge } from './http-messages.ts';
import { GraphQLNodeHandler } from './node-handler.ts';
import { StreamShutdown } from './stream-shutdown.ts';
import { createYogaServer, type GraphQLYoga, type ServerContext } from './yoga-server.ts';

export { GRAPHQL_PATH, type ServerContext } from './yoga-server.ts';

export interface GraphQLDoor {
  yoga: GraphQLYoga;
  /** Fetch handler (in-memory gateway, tests): yoga's own pipeline. */
  fetch(request: Request, serverContext: ServerContext): Promise<Response>;
  /** False when a plugin hooks a step the fast JSON path skips: yoga then runs every request. */
  readonly compiledPathOn: boolean;
  /** node:http handler for requests to /graphql. */
  handleNode(req: IncomingMessage, res: ServerResponse, serverContext: ServerContext): Promise<void>;
  /** Ends every open SSE stream with its `complete` event (docs/edge.md#shutdown-of-streams). */
  endStreams(): void;
}

export interface GraphQLDoorDeps {
  schema: GraphQLSchema;
  services: Services;
  limiter: RateLimiter;
  logger: Logger;
  adminToken: string;
  publicUrl: string;
  maxBodyBytes: number;
  /** CORS_ORIGINS (docs/edge.md#cors); null: any origin, without credentials. */
  corsOrigins: readonly string[] | null;
  now: () => number;
}

export function createGraphQLDoor(deps: GraphQLDoorDeps): GraphQLDoor {
  const createContext = createContextFactory(deps);
  const documents = createDocumentCache();
  const cors = new CorsPolicy(deps.corsOrigins);
  const streams = new StreamShutdown();
  const yoga = createYogaServer({ schema: deps.schema, limiter: deps.limiter, logger: deps.logger, maxBodyBytes: deps.maxBodyBytes, createContext, documents, cors, streams });
  const fastPath = new FastJsonPath(yoga, { schema: deps.schema, limiter: deps.limiter, createContext, documents, cors });
  if (!fastPath.on) deps.logger.warn('graphql: a plugin hooks a step the fast JSON path skips; every request runs through yoga');
  const node = new GraphQLNodeHandler(yoga, fastPath, deps.maxBodyBytes);
  return {
    yoga,
    compiledPathOn: fastPath.on,
    async fetch(request, serverContext) {
      // The same 413 as over node:http when the length is known; yoga's maxRequestBodySize counts the others.
      if (Number(request.headers.get('content-length') ?? 0) > deps.maxBodyBytes) {
        const answer = tooLarge(request.headers.get('accept'));
        return new Response(answer.body, { status: answer.status, headers: answer.headers });
      }
      return yoga.fetch(request, serverContext);
    },
    handleNode: node.handle.bind(node),
    endStreams: () => streams.endAll(),
  };
}
