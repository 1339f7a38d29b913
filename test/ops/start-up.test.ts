/**
 * What a start loads (mcp/lazy-door.ts): the MCP door, its SDK, Ajv and zod, a seventh of the start-up, only on the
 * first request to /mcp. A real process, its module loads watched by a resolve hook; the MCP SDK's own client.
 */
import { describe, expect, it } from 'vitest';
import { mcpClient } from '../agents/mcp-support.ts';
import { startProcess } from '../support/process.ts';

const MCP_DOOR = /^(dist\/)?mcp\/mcp-door\.(ts|js)$/u;

describe('start-up', () => {
  it('serves without the MCP door until /mcp is first asked, then loads it and answers', async () => {
    const server = await startProcess({ DATABASE_URL: ':memory:' }, 'node', { modules: true });
    expect((await fetch(`${server.url}/api/sleeve-options`)).status).toBe(200);
    expect(server.modules()).toContainEqual(expect.stringMatching(/^(dist\/)?src\/server\.(ts|js)$/u));
    expect(server.modules().filter((path) => MCP_DOOR.test(path))).toEqual([]);

    const agent = await mcpClient(server.url);
    const options = await agent.call('get_sleeve_options');
    expect(options.isError).toBeFalsy();
    expect(options.structuredContent).toMatchObject({ charLimit: 20 });
    expect(server.modules().filter((path) => MCP_DOOR.test(path))).toHaveLength(1);
    await agent.client.close();
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  });
});
