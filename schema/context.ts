/** What every resolver receives. Built per request (HTTP) or per operation (WebSocket) by graphql-server/context-factory.ts. */
import type { Services } from '../src/services.ts';

export interface Viewer {
  /** Presented the ADMIN_TOKEN as a bearer token (docs/graphql.md#staff-authorization). */
  isStaff: boolean;
}

export interface GraphQLContext {
  services: Services;
  viewer: Viewer;
  /** The client address, for rate limits shared with the REST door. */
  clientAddress: string;
  /** PUBLIC_URL, the base of image and payment links. */
  publicUrl: string;
  /** The gateway's clock (epoch ms), for texts computed at send time. */
  now: () => number;
}
