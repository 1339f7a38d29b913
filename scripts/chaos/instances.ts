/**
 * Server processes for the chaos run: `node --import tsx src/main.ts` on fixed ports (so clients keep their URLs
 * across restarts), killed with SIGKILL and started again on the same port.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');

export interface Instances {
  count: number;
  urls: string[];
  /** A URL of a live instance, at random (traffic spreads over all of them). */
  any(): string;
  killAndRestart(index: number): Promise<void>;
  /** How many times an instance ended without being killed here (a crash), since the start. */
  crashes(): number;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}

function start(port: number, env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolveStart, reject) => {
    const timer = setTimeout(() => reject(new Error(`instance on ${port} did not start:\n${output}`)), 30_000);
    const onData = (data: Buffer) => {
      output += data.toString();
      if (output.includes('listening on')) {
        clearTimeout(timer);
        resolveStart(child);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (data: Buffer) => (output += data.toString()));
    child.on('exit', (code, signal) => {
      if (!output.includes('listening on')) reject(new Error(`instance on ${port} exited (${code ?? signal}):\n${output}`));
    });
  });
}

/** The processes killed here on purpose: any other exit is a crash. */
const killed = new WeakSet<ChildProcess>();

async function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  killed.add(child);
  const exited = new Promise((done) => child.once('exit', done));
  child.kill('SIGKILL');
  await exited;
}

export async function startInstances(count: number, env: Record<string, string>): Promise<Instances> {
  const ports = await Promise.all(Array.from({ length: count }, freePort));
  const children: ChildProcess[] = [];
  let crashes = 0;
  const launch = async (port: number) => {
    const child = await start(port, env);
    child.on('exit', () => {
      if (!killed.has(child)) crashes++;
    });
    return child;
  };
  // One after another: the first applies the migrations.
  for (const port of ports) children.push(await launch(port));
  const urls = ports.map((port) => `http://127.0.0.1:${port}`);
  return {
    count,
    urls,
    any: () => urls[Math.floor(Math.random() * urls.length)]!,
    async killAndRestart(index) {
      await kill(children[index]!);
      await new Promise((done) => setTimeout(done, 200 + Math.random() * 800)); // clients meet a closed port meanwhile
      children[index] = await launch(ports[index]!);
    },
    crashes: () => crashes,
    async stop() {
      await Promise.all(children.map(kill));
    },
  };
}
