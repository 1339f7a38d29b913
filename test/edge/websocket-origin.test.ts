/**
 * CORS_ORIGINS holds for WebSocket too (docs/edge.md#cors): a browser sends Origin on the upgrade but CORS enforces
 * nothing there, so with a list set the server itself refuses an unlisted page's socket before any work; a listed
 * origin, and a client that sends no Origin (not a browser page), connect. Unset, every origin connects.
 */
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { liveServer } from '../support/live-server.ts';

const SHOP = 'http://shop.example';

/** 'open', or the HTTP status the upgrade was refused with. */
function upgrade(url: string, origin?: string): Promise<'open' | number> {
  return new Promise((resolve) => {
    const socket = new WebSocket(url, 'graphql-transport-ws', origin ? { origin } : {});
    socket.on('open', () => {
      resolve('open');
      socket.close();
    });
    socket.on('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
    socket.on('error', () => {});
  });
}

describe('WebSocket and CORS_ORIGINS', () => {
  it('with a list, refuses an unlisted origin and opens for a listed one or none', async () => {
    const live = await liveServer({ env: { CORS_ORIGINS: SHOP } });
    expect(await upgrade(live.wsUrl, 'http://evil.example')).toBe(403);
    expect(await upgrade(live.wsUrl, SHOP)).toBe('open');
    expect(await upgrade(live.wsUrl)).toBe('open');
  });

  it('unset, opens for any origin', async () => {
    const live = await liveServer();
    expect(await upgrade(live.wsUrl, 'http://evil.example')).toBe('open');
  });
});
