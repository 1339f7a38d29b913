/** Runs the gateway as a real child process on a free port, as `npm start` would. */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterThisTest } from './gateway.ts';

const ROOT = resolve(import.meta.dirname, '../..');

/** What the build compiles (tsconfig.build.json follows its entries' imports) and copies (scripts/build.mjs). */
const BUILT_FROM = ['src', 'graphql-server', 'rest-compat', 'schema', 'mcp', 'scripts', 'tsconfig.json', 'tsconfig.build.json', 'package.json'];
/** The server's sources, as `node` arguments (startupRefusal lists the modules they load). */
const SOURCES = ['--import', 'tsx', 'src/main.ts'];

/**
 * How a child process runs `module` of the checkout in `root` (a path without its extension: `src/main`, what `npm
 * start` runs, or an operator command such as `scripts/vault-rotate`): its build when that was made after the last
 * change to anything it is made from, else its sources under tsx. `npm ci` and `npm install` build it (`prepare`),
 * so a fresh checkout's `npm test` starts the build, in about half the CPU of tsx (2.6 against 4.7 s of a core here,
 * for each server start); after an edit, the sources run until the next `npm run build`.
 */
export function builtOrSources(root: string, module: string): string[] {
  const sources = ['--import', 'tsx', `${module}.ts`];
  let built: number;
  try {
    built = statSync(join(root, 'dist', `${module}.js`)).mtimeMs;
  } catch {
    return sources;
  }
  const newest = Math.max(
    ...BUILT_FROM.flatMap((name) => {
      const path = join(root, name);
      const stat = statSync(path, { throwIfNoEntry: false });
      if (!stat?.isDirectory()) return [stat?.mtimeMs ?? 0];
      return [stat.mtimeMs, ...readdirSync(path, { recursive: true, encoding: 'utf8' }).map((file) => statSync(join(path, file)).mtimeMs)];
    }),
  );
  return newest < built ? [`dist/${module}.js`] : sources;
}

/** Worked out once per worker and module: a run of the suite does not rebuild. */
const entries = new Map<string, string[]>();

/** builtOrSources for this checkout's `module` (`src/main`, `scripts/vault-rotate`): how its child processes run it. */
export function entryOf(module: string): string[] {
  let entry = entries.get(module);
  if (!entry) entries.set(module, (entry = builtOrSources(ROOT, module)));
  return entry;
}

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  /** What it wrote, stdout and stderr (but the `modules` option's lines). */
  output: () => string;
  /** With the `modules` option: the project's modules it has loaded so far, as paths from the project's root. */
  modules: () => string[];
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
}

/**
 * `how: 'npm start'` runs the start script through npm, as a person or a process manager would (npm's own
 * process is then `child`); the default runs the server's node process directly.
 */
export async function startProcess(env: Record<string, string>, how: 'node' | 'npm start' = 'node', { modules = false } = {}): Promise<ServerProcess> {
  // Under `npm test`, npm_execpath names the npm that runs the suite; otherwise the one on PATH.
  const npm = process.env.npm_execpath ? [process.execPath, process.env.npm_execpath] : ['npm'];
  const node = entryOf('src/main');
  const [command, ...args] = how === 'node' ? [process.execPath, ...node.slice(0, -1), ...(modules ? moduleHook() : []), node.at(-1)!] : [...npm, 'start', '--silent'];
  const child = spawn(command!, args, {
    cwd: ROOT,
    // Merchant endpoints in the suites are local receivers (the default, public addresses only, is tested where named).
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ENDPOINT_ALLOWED_NETWORKS: 'loopback', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let errors = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => {
    errors += d.toString();
    const lines = errors.split('\n');
    errors = lines.pop()!;
    for (const line of lines) {
      if (line.startsWith(MODULE_LINE)) loaded.push(line.slice(MODULE_LINE.length));
      else output += line + '\n';
    }
  });
  const loaded: string[] = [];
  const exited = new Promise<number | null>((resolveExit) => child.on('exit', (code) => resolveExit(code)));
  afterThisTest(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited;
    }
  });
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 20_000);
    const check = () => {
      const match = /listening on (http:\/\/\S+)/u.exec(output);
      if (match) {
        clearTimeout(timer);
        resolveUrl(match[1]!);
      }
    };
    child.stdout!.on('data', check);
    child.on('exit', () => reject(new Error(`server exited:\n${output}`)));
  });
  return { child, url, output: () => output + errors, modules: () => [...loaded], exited };
}

/**
 * A module hook for `startupRefusal`'s `modules`: prints every module of this project (not node_modules) the child
 * resolves, to stderr, where the lines are told apart from the refusal's by their prefix.
 */
const MODULE_HOOKS = `export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  if (resolved.url.startsWith('file:') && !resolved.url.includes('/node_modules/')) process.stderr.write('module ' + resolved.url + '\\n');
  return resolved;
}`;
/** How the hook's lines begin: "module file:///…/project/" and the path. */
const MODULE_LINE = `module ${pathToFileURL(ROOT).href}/`;

/** `node` arguments that register the hook; after tsx's, before the entry (the last registered resolves first). */
function moduleHook(): string[] {
  const hooks = `data:text/javascript,${encodeURIComponent(MODULE_HOOKS)}`;
  return ['--import', `data:text/javascript,${encodeURIComponent(`import { register } from 'node:module'; register(${JSON.stringify(hooks)});`)}`];
}

/**
 * Starts `src/main.ts` with `env` and waits for it to exit (a configuration it refuses): its exit code and stderr
 * lines; with `modules`, also the project's modules it loaded, as paths from the project's root.
 */
export function startupRefusal(env: Record<string, string>, { modules = false } = {}): { status: number | null; lines: string[]; modules: string[] } {
  const result = spawnSync(process.execPath, [...SOURCES.slice(0, -1), ...(modules ? moduleHook() : []), SOURCES.at(-1)!], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: ':memory:', ...env },
    encoding: 'utf8',
    timeout: 20_000,
  });
  const lines = result.stderr.trim().split('\n');
  return {
    status: result.status,
    lines: lines.filter((line) => !line.startsWith('module ')),
    modules: lines.filter((line) => line.startsWith(MODULE_LINE)).map((line) => line.slice(MODULE_LINE.length)),
  };
}
