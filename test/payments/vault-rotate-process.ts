/**
 * scripts/vault-rotate.ts as an operator runs it (its build, as `npm run vault:rotate`, unless the sources changed
 * since), for the suites that rotate VAULT_KEY (vault-rotation.test.ts, vault-damaged.test.ts,
 * network-token-at-rest.test.ts): a process of its own on a database the test's gateways share.
 */
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { BACKEND, backendEnv } from '../support/databases.ts';
import { afterThisTest } from '../support/gateway.ts';
import { entryOf } from '../support/process.ts';
import { tempDir } from '../support/temp-dir.ts';

const ROOT = resolve(import.meta.dirname, '../..');

export const b64 = (key: Buffer) => key.toString('base64');

export const keyEnv = (current: Buffer, previous: Buffer[]) => ({ VAULT_KEY: b64(current), VAULT_PREVIOUS_KEYS: previous.map(b64).join(',') });

/** One database the test's gateways and the rotation processes share: a SQLite file, or a PostgreSQL schema. */
export function sharedDatabase(): string {
  if (BACKEND !== 'postgres') return `file:${join(tempDir(), 'sleeve.db')}`;
  const backend = backendEnv();
  afterThisTest(backend.cleanup);
  return backend.env.DATABASE_URL!;
}

export interface Rotation {
  output(): string;
  /** Resolves once a line of output matches. */
  waitFor(pattern: RegExp): Promise<void>;
  kill(): void;
  exited: Promise<number | null>;
}

/** The rotation with only the environment given (none of this process's VAULT_ variables). */
export function rotate(url: string, env: Record<string, string>): Rotation {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('VAULT_')));
  const child = spawn(process.execPath, entryOf('scripts/vault-rotate'), { cwd: ROOT, env: { ...inherited, DATABASE_URL: url, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const waiters: Array<() => void> = [];
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
    waiters.forEach((check) => check());
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  afterThisTest(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  });
  return {
    output: () => output,
    kill: () => child.kill('SIGKILL'),
    exited,
    waitFor: (pattern) =>
      new Promise((done, fail) => {
        const check = () => pattern.test(output) && done();
        waiters.push(check);
        check();
        void exited.then(() => fail(new Error(`exited before ${pattern}:\n${output}`)));
      }),
  };
}
