/**
 * stdout is the log (docs/running.md#logs): one JSON object a line, so a shipper parses every line. A start wrote
 * plain text there too: the secrets it generated and a "Sleeve Gateway listening on …" line beside the JSON
 * "listening" line. The listening line is JSON now, written whatever LOG_LEVEL, its message still "listening on URL"
 * for the scripts that read the port (PORT=0); the generated secrets go to stderr, shown once to the operator and
 * kept out of the log.
 */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { afterThisTest } from '../support/gateway.ts';
import { eventually } from '../support/receiver.ts';
import { entryOf } from '../support/process.ts';

const ROOT = resolve(import.meta.dirname, '../..');

/** The gateway started with `env`, its stdout and stderr kept apart, stopped with SIGTERM once it listens. */
async function startAndStop(env: Record<string, string>): Promise<{ stdout: string[]; stderr: string[]; code: number | null }> {
  const child = spawn(process.execPath, entryOf('src/main'), {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATABASE_URL: ':memory:', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  afterThisTest(async () => void (child.exitCode === null && child.signalCode === null && child.kill('SIGKILL')));
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (data: Buffer) => (stdout += data.toString()));
  child.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
  const exited = new Promise<number | null>((done) => child.on('exit', done));
  const url = await eventually(() => /listening on (http:\/\/[^\s"]+)/u.exec(stdout + stderr)?.[1], 20_000);
  await fetch(`${url}/api/sleeve-options`);
  child.kill('SIGTERM');
  const code = await exited;
  const lines = (text: string) => text.split('\n').filter((line) => line !== '');
  return { stdout: lines(stdout), stderr: lines(stderr), code };
}

describe('what a start writes to stdout', () => {
  for (const level of ['info', 'warn']) {
    it(`is one JSON object a line, the listening line included, at LOG_LEVEL=${level}`, async () => {
      // Nothing set: the secrets are generated, and told.
      const { stdout, stderr, code } = await startAndStop({ LOG_LEVEL: level });
      expect(code).toBe(0);
      const parsed = stdout.map((line) => {
        try {
          return JSON.parse(line) as Record<string, unknown>;
        } catch {
          return { notJson: line.replace(/=.*/u, '=…') }; // a failure names the line, never a generated secret
        }
      });
      expect(parsed.filter((line) => 'notJson' in line)).toEqual([]);
      const listening = parsed.filter((line) => /^listening on /u.test(String(line.msg)));
      expect(listening).toEqual([expect.objectContaining({ level: 'info', msg: expect.stringMatching(/^listening on http:\/\/127\.0\.0\.1:\d+ \(GraphQL at \/graphql\)$/u), database: ':memory:' })]);
      // The scripts' pattern finds the URL alone in it, not the JSON after it.
      expect(/listening on (http:\/\/\S+)/u.exec(stdout.join('\n'))?.[1]).toBe(listening[0]!.url);
      expect(stderr[0]).toBe('Generated for this run (set these variables to keep them):');
      expect(stderr.some((line) => /^ {2}ADMIN_TOKEN=\S+$/u.test(line))).toBe(true);
    });
  }
});
