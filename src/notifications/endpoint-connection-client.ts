/**
 * Connections to merchants' own endpoints (docs/merchant-webhooks.md#where-endpoints-may-be): keep-alive agents that
 * connect only where the address policy allows (endpoint-addresses.ts). The check is made where the connection is
 * made, as request-filtering-agent makes it: for a URL naming an address, before connecting; for a name, on every
 * address DNS answers, so a public name pointed at 127.0.0.1 (or re-pointed there after the URL was accepted) is
 * refused too. These agents serve only merchants' endpoints: a kept-alive socket to MERCHANT_ENDPOINT, which the
 * operator set and may be anywhere, is never handed to them.
 *
 * Why not request-filtering-agent itself: its allow list is matched entry by entry against each address, and an
 * entry of the other family (an IPv6 CIDR for an IPv4 address) throws inside it and writes a console warning, a
 * line outside the JSON logs for every connection, whenever the list names both families. proxy-addr's compiled
 * list, already the reading of TRUST_PROXY, matches each family against its own entries.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { Agent as HttpAgent, type AgentOptions } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { isIP, Socket, type LookupFunction, type TcpNetConnectOpts } from 'node:net';
import type { Duplex } from 'node:stream';
import { hostOf, refusedAddress, type AddressPolicy } from './endpoint-addresses.ts';

/** dns.lookup, failing when any address the name has is refused. */
function filteredLookup(policy: AddressPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, options, (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => {
      if (error) return callback(error, address as string, family);
      for (const { address: each } of typeof address === 'string' ? [{ address }] : address) {
        // The range, never the address: the site reads this error, and a name's address inside the venue or the
        // cloud is the operator's to know, not any merchant's who registers that name (a security review).
        const range = policy(each);
        if (range) return callback(Object.assign(new Error(`refused: ${hostname} resolves to an address in the ${range} range, which is not allowed`), { code: 'EADDRREFUSED' }), address as string, family);
      }
      callback(null, address as string, family);
    });
  };
}

/** The socket of a refused connection: the request fails with `error`, as a failed connect would. */
function refusedSocket(error: Error, callback?: (error: Error | null, socket: Duplex) => void): Socket {
  const socket = new Socket();
  if (callback) callback(error, socket);
  else process.nextTick(() => socket.destroy(error));
  return socket;
}

type Connect = (options: TcpNetConnectOpts, callback?: (error: Error | null, socket: Duplex) => void) => Duplex;

/** Keep-alive agents for merchants' endpoints, each connection checked against `policy` (above). */
export function endpointAgents(policy: AddressPolicy, options: AgentOptions = { keepAlive: true }): { 'http:': HttpAgent; 'https:': HttpsAgent } {
  const lookup = filteredLookup(policy); // one for every connection: it holds nothing of any one of them
  const guard = <A extends HttpAgent>(agent: A): A => {
    const own = agent as unknown as { createConnection: Connect };
    const connect = own.createConnection.bind(agent);
    own.createConnection = (connection, callback) => {
      const host = connection.host === undefined ? undefined : hostOf(connection.host);
      const range = host !== undefined && isIP(host) !== 0 ? policy(host) : null;
      if (range) return refusedSocket(Object.assign(new Error(`refused: ${refusedAddress(host!, range)}`), { code: 'EADDRREFUSED' }), callback);
      return connect({ ...connection, lookup }, callback);
    };
    return agent;
  };
  return { 'http:': guard(new HttpAgent(options)), 'https:': guard(new HttpsAgent(options)) };
}
