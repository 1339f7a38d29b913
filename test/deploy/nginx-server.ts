/**
 * The shipped deploy/nginx/sleeve-gateway.conf, run for real: the file is read as it ships and only its listen ports,
 * certificate paths and upstream addresses are replaced (each replacement must match, so a change to the shipped
 * file that the test no longer understands fails loudly instead of testing something else). nginx runs as a child
 * in the foreground, in a temporary prefix, on free 127.0.0.1 ports, with a self-signed certificate made by openssl.
 */
import { execFileSync, spawn } from 'node:child_process';
import { accessSync, constants, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { delimiter, join, resolve } from 'node:path';
import { afterThisTest } from '../support/gateway.ts';
import { freePorts } from '../support/ports.ts';
import { tempDir } from '../support/temp-dir.ts';

const SHIPPED = resolve(import.meta.dirname, '../../deploy/nginx/sleeve-gateway.conf');

/** nginx on PATH, or Debian's /usr/sbin/nginx (not on an ordinary user's PATH); null when not installed. */
export function findExecutable(name: string, extra: string[] = []): string | null {
  for (const dir of [...(process.env.PATH ?? '').split(delimiter), ...extra]) {
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

/** The nginx binary, when installed. */
export const NGINX = findExecutable('nginx', ['/usr/sbin', '/usr/local/sbin']);
/** Why the suites that run nginx in front of instances skip here, or null when they run. */
export const SKIPPED = !NGINX
  ? 'nginx is not installed (.ci/run installs it from Debian)'
  : !findExecutable('openssl')
    ? 'openssl is not installed'
    : !process.env.TEST_DATABASE_URL || !process.env.TEST_REDIS_URL
      ? 'set TEST_DATABASE_URL and TEST_REDIS_URL'
      : null;

export interface RunningNginx {
  /** https://127.0.0.1:PORT, the TLS server block. */
  https: string;
  /** http://127.0.0.1:PORT, the port-80 block that redirects. */
  http: string;
  /** The self-signed certificate (PEM) to trust. */
  ca: string;
  /** Lines of the access log: `METHOD URI STATUS UPSTREAM`. */
  accessLog(): string[];
  /** Lines of the access log in the shipped file's own format. */
  shippedAccessLog(): string[];
  /** What nginx wrote to its error logs: the shipped file's own and the harness's (stderr, level warn). */
  errors(): string;
}

/** Replaces exactly `count` occurrences of `pattern` in the shipped file, or says what no longer matches. */
function replace(text: string, pattern: RegExp, to: (match: string, ...groups: string[]) => string, count = 1): string {
  const found = text.match(new RegExp(pattern.source, 'gmu'))?.length ?? 0;
  if (found !== count) throw new Error(`deploy/nginx/sleeve-gateway.conf: expected ${count} × ${pattern}, found ${found}; update test/deploy/nginx-server.ts`);
  return text.replace(new RegExp(pattern.source, 'gmu'), to as never);
}

/** The shipped file with only addresses, ports and certificate paths made local. */
export function localVariant(upstreams: string[], ports: { http: number; https: number }, cert: { crt: string; key: string }, logDir: string): string {
  let text = readFileSync(SHIPPED, 'utf8');
  let next = 0;
  text = replace(text, /^([ \t]*server )\S+:\d+( .*;)$/, (_m, head, tail) => `${head}${upstreams[next++]}${tail}`, upstreams.length);
  text = replace(text, /^[ \t]*listen \[::\]:\d+.*;\n/, () => '', 2);
  text = replace(text, /^([ \t]*listen )80;$/, (_m, head) => `${head}127.0.0.1:${ports.http};`);
  text = replace(text, /^([ \t]*listen )443( ssl.*;)$/, (_m, head, tail) => `${head}127.0.0.1:${ports.https}${tail}`);
  text = replace(text, /^([ \t]*ssl_certificate[ \t]+)\S+;$/, (_m, head) => `${head}${cert.crt};`);
  // The shipped log in the test's directory, and beside it the harness's own (a server's access_log replaces http's).
  const shippedLog = (head: string, format: string) => `${head}${join(logDir, 'shipped-access.log')} ${format};\n${head}${join(logDir, 'access.log')} upstreams;`;
  text = replace(text, /^([ \t]*access_log )\S+ (\w+);$/, (_m, head, format) => shippedLog(head, format));
  text = replace(text, /^([ \t]*error_log )\S+ (\w+);$/, (_m, head, level) => `${head}${join(logDir, 'shipped-error.log')} ${level};`);
  return replace(text, /^([ \t]*ssl_certificate_key[ \t]+)\S+;$/, (_m, head) => `${head}${cert.key};`);
}

function accepts(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    socket.once('connect', () => (socket.destroy(), done(true)));
    socket.once('error', () => done(false));
  });
}

/** Starts nginx with the shipped configuration in front of `upstreams` (host:port); stopped after the test. */
export async function startNginx(nginx: string, upstreams: string[]): Promise<RunningNginx> {
  const dir = tempDir('sleeve-nginx-');
  const crt = join(dir, 'cert.pem');
  const key = join(dir, 'key.pem');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=sleeve.example.org',
    '-addext', 'subjectAltName=DNS:sleeve.example.org,IP:127.0.0.1', '-keyout', key, '-out', crt], { stdio: 'ignore' });
  const [http, https] = (await freePorts(2)) as [number, number];
  const ports = { http, https };
  writeFileSync(join(dir, 'sleeve-gateway.conf'), localVariant(upstreams, ports, { crt, key }, dir));
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((name) => `${name}_temp_path ${join(dir, name)};`);
  writeFileSync(
    join(dir, 'nginx.conf'),
    [
      // As root, workers would run as `nobody` and could not write to this root-only temporary prefix.
      process.getuid?.() === 0 ? 'user root;' : '',
      'daemon off;',
      'worker_processes 1;',
      `pid ${join(dir, 'nginx.pid')};`,
      'error_log stderr warn;',
      'events { worker_connections 256; }',
      'http {',
      "  log_format upstreams '$request_method $uri $status $upstream_addr';",
      `  access_log ${join(dir, 'access.log')} upstreams;`,
      ...temp.map((line) => `  ${line}`),
      `  include ${join(dir, 'sleeve-gateway.conf')};`,
      '}',
    ].join('\n'),
  );
  // Its own process group, so that the master and its worker are stopped together, whatever happens to the test.
  const child = spawn(nginx, ['-p', dir + '/', '-c', join(dir, 'nginx.conf'), '-e', 'stderr'], { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  afterThisTest(async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    process.kill(-child.pid!, 'SIGTERM');
    const stopped = await Promise.race([exited.then(() => true), new Promise<boolean>((done) => setTimeout(() => done(false), 5_000))]);
    if (!stopped) process.kill(-child.pid!, 'SIGKILL');
    await exited;
  });
  const deadline = Date.now() + 10_000;
  while (!(await accepts(ports.https))) {
    if (child.exitCode !== null) throw new Error(`nginx exited (${child.exitCode}):\n${output}`);
    if (Date.now() > deadline) throw new Error(`nginx did not listen on ${ports.https}:\n${output}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const accessLog = join(dir, 'access.log');
  return {
    https: `https://127.0.0.1:${ports.https}`,
    http: `http://127.0.0.1:${ports.http}`,
    ca: readFileSync(crt, 'utf8'),
    accessLog: () => linesOf(accessLog),
    shippedAccessLog: () => linesOf(join(dir, 'shipped-access.log')),
    errors: () => [...linesOf(join(dir, 'shipped-error.log')), output].join('\n'),
  };
}

const linesOf = (path: string): string[] => (existsSync(path) ? readFileSync(path, 'utf8').split('\n').filter(Boolean) : []);
