/**
 * The package as another project gets it (CONTRACT §7, issue 16): `npm pack`, install the tarball with graphql and
 * vitest into a fresh project, write the README's example test there byte for byte, and run that project's own
 * vitest; plain `node` imports the package too, and the example type-checks against the shipped declarations.
 *
 * It packs a copy of this checkout (node_modules linked in, no dist/): `prepare` then builds from scratch as on a
 * fresh clone, and never rewrites this checkout's dist/ while another suite runs `npm start` from it.
 * npm installs the tarball's dependencies from its cache first (--prefer-offline), the registry only for what the
 * cache lacks. better-sqlite3's install script (prebuild-install) looks for a prebuilt binary before it compiles
 * one: a consumer online downloads it from the project's releases; here, with no network but the registry, the
 * consumer is pointed at a local copy of the same prebuild (`npm_config_better_sqlite3_local_prebuilds`, made from
 * this checkout's binary), which saves a compile of about 80 s of one core. Its install script still runs, and the
 * consumer's tests and plain `node` below load that binary.
 */
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';
import { readmeExample, ROOT } from './readme-example.ts';

const work = mkdtempSync(join(tmpdir(), 'sleeve-pack-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** What a fresh clone would not have (besides every node_modules), or what is not ours to copy. */
const NOT_COPIED = new Set(['.git', 'dist', 'data', 'coverage', 'test-output', join('bench', 'results')]);

// Under `npm test`, npm_execpath names the npm that runs the suite; otherwise the one on PATH.
const NPM = process.env.npm_execpath ? [process.execPath, process.env.npm_execpath] : ['npm'];

/**
 * The children's environment: ours without what the running `npm test` and vitest set for this project (npm's
 * package and lifecycle variables, its local prefix, vitest's worker variables), which would leak into theirs.
 */
const childEnv: NodeJS.ProcessEnv = {
  ...Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !/^(npm_package_|npm_lifecycle_|npm_command$|npm_config_local_prefix$|npm_config_call$|vitest)/iu.test(key)),
  ),
  NO_COLOR: '1',
};

/**
 * The prebuild prebuild-install would download for this checkout's better-sqlite3 (its name: `{name}-v{version}-
 * {runtime}-v{abi}-{platform}{libc}-{arch}.tar.gz`, glibc Linux here), packed from our own build; its folder goes
 * to the consumer's install. A consumer resolving another version finds no match and compiles, as before.
 */
async function localPrebuilds(): Promise<string> {
  const sqlite = join(ROOT, 'node_modules', 'better-sqlite3');
  const { version } = JSON.parse(readFileSync(join(sqlite, 'package.json'), 'utf8')) as { version: string };
  const folder = join(work, 'prebuilds');
  mkdirSync(folder);
  const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  await promisify(execFile)('tar', ['-czf', join(folder, name), '-C', sqlite, 'build/Release/better_sqlite3.node']);
  return folder;
}

interface Ran {
  stdout: string;
  stderr: string;
  seconds: number;
}

/** Runs a command to its end; rejects with everything it printed when it fails. */
function run(command: string[], cwd: string, timeoutMs: number): Promise<Ran> {
  const started = performance.now();
  return new Promise((resolveRun, reject) => {
    execFile(command[0]!, command.slice(1), { cwd, env: childEnv, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${command.join(' ')} (in ${cwd}) failed: ${error.message}\n${stdout}\n${stderr}`));
      else resolveRun({ stdout, stderr, seconds: Math.round((performance.now() - started) / 100) / 10 });
    });
  });
}

/** `npm pack` of a fresh copy of this checkout: the tarball's path and the paths it holds. */
async function pack(): Promise<{ tarball: string; files: string[]; seconds: number }> {
  const source = join(work, 'source');
  cpSync(ROOT, source, { recursive: true, filter: (path) => basename(path) !== 'node_modules' && !NOT_COPIED.has(relative(ROOT, path)) });
  // tsc and the @types the build needs; nothing writes here (the build writes dist/ in the copy).
  symlinkSync(join(ROOT, 'node_modules'), join(source, 'node_modules'), 'dir');
  const destination = join(work, 'pack');
  mkdirSync(destination);
  const { stdout, seconds } = await run([...NPM, 'pack', '--json', '--pack-destination', destination], source, 180_000);
  const [packed] = JSON.parse(stdout) as [{ filename: string; files: { path: string }[] }];
  return { tarball: join(destination, packed.filename), files: packed.files.map((f) => f.path), seconds };
}

it('packs, installs into a fresh project, and the README example passes there unchanged', async () => {
  const ours = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
  const timings: Record<string, number> = {};

  const { tarball, files, seconds: packSeconds } = await pack();
  timings.pack = packSeconds;
  // The build, its declarations, the pages' files it reads at run time, the schema for codegen; no sources or tests.
  // Redoc's bundle too, which /docs serves: redoc is a development dependency (it brought React and a hundred packages).
  expect(files).toEqual(expect.arrayContaining(['package.json', 'README.md', 'schema/schema.graphql', 'dist/src/index.js', 'dist/src/index.d.ts', 'dist/src/main.js', 'dist/scripts/vault-rotate.js', 'dist/scripts/sqlite-backup.js', 'dist/src/pages/app/order-app.js', 'dist/rest-compat/redoc.standalone.js']));
  expect(files.filter((path) => !path.startsWith('dist/') && !['package.json', 'README.md', 'schema/schema.graphql'].includes(path))).toEqual([]);
  expect(files.filter((path) => path.endsWith('.ts') && !path.endsWith('.d.ts'))).toEqual([]);

  // A fresh project, installing what the README says to install (vitest at the version this project tests with).
  const consumer = join(work, 'consumer');
  mkdirSync(consumer);
  // With what the README asks you to add to it (npm's allowScripts): npm then lists no install script as unreviewed
  // but the gateway's own prepare, which it matches by the tarball's path, not by a name (an npm without allowScripts
  // lists none).
  const example = readmeExample();
  const manifest = { name: 'sleeve-gateway-consumer', private: true, type: 'module', scripts: { test: 'vitest run' }, ...example.manifest };
  writeFileSync(join(consumer, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  const vitest = `vitest@${ours.devDependencies.vitest}`;
  // --engine-strict: with the README's overrides, nothing installed asks for a newer Node than the package does.
  const install = [...NPM, 'install', '-D', '--engine-strict', '--prefer-offline', '--no-audit', '--no-fund', tarball, 'graphql', vitest];
  childEnv.npm_config_better_sqlite3_local_prebuilds = await localPrebuilds();
  const installed = await run(install, consumer, 480_000);
  timings.install = installed.seconds;
  const unreviewed = [...installed.stderr.matchAll(/^npm warn install-scripts +(\S+)@\S+ \(/gmu)].map((match) => match[1]);
  expect(unreviewed.filter((name) => name !== 'sleeve-gateway')).toEqual([]);
  // Where npm reviews scripts, the list was read (a change of its wording would otherwise pass unseen).
  if (installed.stderr.includes('install-scripts')) expect(unreviewed).toContain('sleeve-gateway');

  // The README's example, byte for byte, where it says it lives; run by that project's own `npm test` (vitest).
  mkdirSync(dirname(join(consumer, example.file)), { recursive: true });
  writeFileSync(join(consumer, example.file), example.source);
  const tested = await run([...NPM, 'test'], consumer, 120_000);
  timings.vitest = tested.seconds;
  expect(tested.stdout).toMatch(/Tests\s+1 passed \(1\)/u);
  // vitest's VM pools run each file in a vm context, whose module loader takes no import attributes: a JSON module
  // imported `with { type: 'json' }` failed to load there (an outside review of the package, 2026-12-04).
  for (const pool of ['vmThreads', 'vmForks']) {
    const pooled = await run([...NPM, 'test', '--', `--pool=${pool}`], consumer, 120_000);
    expect(pooled.stdout, pool).toMatch(/Tests\s+1 passed \(1\)/u);
  }

  // Plain node, no loader: the package's JavaScript, its graphql (the consumer's), and the pages' files from dist/.
  const script = `import('sleeve-gateway').then(async ({ createGateway, createManualClock }) => {
    const gateway = await createGateway({ clock: createManualClock() });
    const graphql = await gateway.fetch(new Request('http://localhost/graphql', {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ sleeveOptions { sizes } }' }),
    }));
    const asset = await gateway.fetch(new Request('http://localhost/assets/app/order-app.js'));
    const docs = await gateway.fetch(new Request('http://localhost/docs/redoc.standalone.js'));
    console.log(JSON.stringify({ graphql: await graphql.json(), asset: asset.status, docs: [docs.status, (await docs.text()).length > 100000] }));
    await gateway.dispose();
  })`;
  const plain = await run([process.execPath, '-e', script], consumer, 60_000);
  timings.node = plain.seconds;
  expect(JSON.parse(plain.stdout)).toEqual({ graphql: { data: { sleeveOptions: { sizes: expect.arrayContaining(['13-inch']) } } }, asset: 200, docs: [200, true] });
  expect(existsSync(join(consumer, 'node_modules/redoc')), 'redoc installed with the package').toBe(false);

  // CommonJS `require` (Node loads ES modules by require from 20.19): the same entry, its error class too; and the
  // two files a consumer's tooling reads, exported (codegen reads the schema; ERR_PACKAGE_PATH_NOT_EXPORTED before).
  const required = await run([process.execPath, '-e', [
    "const g = require('sleeve-gateway');",
    "const schema = require('node:fs').readFileSync(require.resolve('sleeve-gateway/schema.graphql'), 'utf8');",
    "console.log(typeof g.createGateway, typeof g.ConfigError, require('sleeve-gateway/package.json').name, schema.includes('type Query'))",
  ].join(' ')], consumer, 60_000);
  expect(required.stdout.trim()).toBe('function function sleeve-gateway true');

  // The example against the package's declarations (`exports` → `types`), with this project's TypeScript.
  const tsconfig = { compilerOptions: { module: 'NodeNext', target: 'ES2022', lib: ['ES2023', 'DOM'], strict: true, noEmit: true, skipLibCheck: true, types: [] } };
  writeFileSync(join(consumer, 'tsconfig.json'), JSON.stringify({ ...tsconfig, include: [example.file] }));
  timings.tsc = (await run([process.execPath, join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', consumer], consumer, 120_000)).seconds;

  console.log(`pack-install, seconds: ${JSON.stringify(timings)}`);
}, 900_000);
