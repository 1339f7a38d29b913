/**
 * The MCP door loaded on its first request (docs/agents.md#mcp-server). The SDK, Ajv and zod it brings are about a
 * seventh of the gateway's start-up (0.2 of 1.5 s of module loading here), and most instances of an event never
 * serve an agent: they start without it. The first request to `/mcp` on an instance waits for the load once.
 *
 * Nothing of the door is needed before that request: its bus listeners serve calls and streams held on this
 * instance (a tool's question relayed back, resource updates for a stream here), and neither exists before the
 * door has served a request here.
 */
import type { McpDoor, McpDoorDeps } from './mcp-door.ts';

export const MCP_PATH = '/mcp';

export function lazyMcpDoor(deps: McpDoorDeps): McpDoor {
  let door: Promise<McpDoor> | null = null;
  const load = () => (door ??= import('./mcp-door.ts').then(({ createMcpDoor }) => createMcpDoor(deps)));
  return {
    async handleNode(req, res, context) {
      return (await load()).handleNode(req, res, context);
    },
    endStreams() {
      void door?.then((loaded) => loaded.endStreams(), () => undefined);
    },
    async dispose() {
      // A door that failed to load failed its requests (500, logged); there is nothing of it to close.
      const loaded = await door?.catch(() => null);
      await loaded?.dispose();
    },
  };
}
