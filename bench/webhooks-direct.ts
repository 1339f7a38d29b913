/**
 * The direct baseline of bench/webhooks.ts, in its own process as the gateway is: the POSTs a receiver got from the
 * dispatcher, read from the JSON file argv[2] (`[{url, headers, body}]`), sent again as the dispatcher sends them
 * (webhook-client.ts: node:http, kept-alive connections, argv[3] of them, each answer read to the end), argv[3] at a
 * time. Run in the bench's own process, the sender shared one thread with the receiver while the gateway had a core
 * of its own: the baseline was held down, and the ratio flattered the dispatcher. Prints "done" and exits.
 */
import { readFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { pool, postKeptAlive } from './lib.ts';

const posts = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as Array<{ url: string; headers: Record<string, string>; body: string }>;
const width = Number(process.argv[3]);
const agent = new Agent({ keepAlive: true, maxSockets: width });

const passes = Number(process.argv[4] ?? 1);
for (let pass = 0; pass < passes; pass++) {
  await pool(posts.length, width, async (i) => {
    const { url, headers, body } = posts[i]!;
    await postKeptAlive(agent, url, headers, body);
  });
}
agent.destroy();
console.log('done');
