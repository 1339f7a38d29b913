/**
 * createContext: one factory for every transport (HTTP through yoga, the fast JSON path, and later
 * WebSocket). A missing or wrong token gives an anonymous viewer, never a throw: staff fields then refuse
 * with UNAUTHORIZED, and a socket is never closed for it.
 */
import { secretsEqual } from '../src/kernel/tokens.ts';
import type { Services } from '../src/services.ts';
import type { GraphQLContext, Viewer } from '../schema/context.ts';

export interface ContextDeps {
  services: Services;
  adminToken: string;
  publicUrl: string;
  now: () => number;
}

const ANONYMOUS: Viewer = Object.freeze({ isStaff: false });
const STAFF: Viewer = Object.freeze({ isStaff: true });

export function viewerFromAuthorization(authorization: string | null | undefined, adminToken: string): Viewer {
  if (!authorization) return ANONYMOUS;
  const match = /^Bearer\s+(.+)$/iu.exec(authorization.trim());
  return match && secretsEqual(match[1]!, adminToken) ? STAFF : ANONYMOUS;
}

export function createContextFactory({ services, adminToken, publicUrl, now }: ContextDeps) {
  return function createContext(input: { authorization: string | null | undefined; clientAddress: string }): GraphQLContext {
    return {
      services,
      viewer: viewerFromAuthorization(input.authorization, adminToken),
      clientAddress: input.clientAddress,
      publicUrl,
      now,
    };
  };
}
