/**
 * The fan-out bench's child processes (bench/fanout.ts): each started through `bash -c 'ulimit -n …'` with its
 * open-file limit raised as far as the hard limit allows, stdout read line by line, stderr's tail kept, every one
 * ended on the way out (also on error or signal).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { ROOT, runnerArgs } from './lib.ts';

const children = new Set<ChildProcess>();

export interface Proc {
  child: ChildProcess;
  /** Resolves with the first stdout match of `ready` (rejects if the process exits first). */
  ready: Promise<RegExpExecArray>;
  lines: (listener: (line: string) => void) => void;
  stderrTail: () => string;
  stop: () => Promise<void>;
}

/**
 * node SCRIPT (runnerArgs: tsx for TypeScript, BENCH_NODE_ARGS for the gateway), with the open-file limit raised;
 * stdout read line by line, stderr kept (tail).
 */
export function startNode(script: string, env: Record<string, string>, ready: RegExp): Proc {
  const raise = 'ulimit -n 65535 2>/dev/null || ulimit -n "$(ulimit -Hn)" 2>/dev/null; exec "$@"';
  const child = spawn('bash', ['-c', raise, 'bash', process.execPath, ...runnerArgs(script)], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  child.on('exit', () => children.delete(child));
  const listeners: Array<(line: string) => void> = [];
  let buffered = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    let at: number;
    while ((at = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, at);
      buffered = buffered.slice(at + 1);
      for (const listener of listeners) listener(line);
    }
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const readyPromise = new Promise<RegExpExecArray>((resolveReady, reject) => {
    listeners.push((line) => {
      const match = ready.exec(line);
      if (match) resolveReady(match);
    });
    child.on('exit', (code) => reject(new Error(`${script} exited with ${code}: ${stderr.slice(-1000)}`)));
  });
  readyPromise.catch(() => {});
  return {
    child,
    ready: readyPromise,
    lines: (listener) => listeners.push(listener),
    stderrTail: () => stderr,
    stop: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null || child.signalCode !== null) return done();
        const kill = setTimeout(() => child.kill('SIGKILL'), 5000);
        child.on('exit', () => {
          clearTimeout(kill);
          done();
        });
        child.kill('SIGTERM');
      }),
  };
}

export function killAll(): void {
  for (const child of children) child.kill('SIGKILL');
}
process.on('exit', killAll);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    killAll();
    process.exit(130);
  });
}

