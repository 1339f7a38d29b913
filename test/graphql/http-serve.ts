/** A gateway served over one transport, with the /graphql calls the HTTP suites make (http-transport, http-parity). */
import { gatewayOver, type Transport, type TransportGateway } from '../support/graphql-transports.ts';

export interface Served {
  t: TransportGateway;
  /** A request to /graphql (with `search`) over the transport; a node request has a deadline, so a hang fails fast. */
  call(init?: RequestInit, search?: string): Promise<Response>;
  /** A JSON POST: the fast path, over node:http. */
  post(body: unknown, headers?: Record<string, string>): Promise<Response>;
}

export async function serve(transport: Transport, env: Record<string, string> = {}): Promise<Served> {
  const t = await gatewayOver(transport, { env });
  const call = (init: RequestInit = {}, search = '') => t.request(`/graphql${search}`, { ...init, signal: AbortSignal.timeout(5_000) });
  const post = (body: unknown, headers: Record<string, string> = {}) =>
    call({
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  return { t, call, post };
}

export const QUERY = '{ sleeveOptions { sizes fonts threads charLimit sizeChoices { value image } } eventInfo }';
export const JSON_TYPE = 'application/json; charset=utf-8';
export const RESPONSE_TYPE = 'application/graphql-response+json';
