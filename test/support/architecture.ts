/**
 * The layout's rules (DESIGN.md "Layout", issue 13 point 2) as one function: `checkArchitecture(root)` reads every
 * source file under `root` with the TypeScript parser (so comments and strings never count as imports or SQL) and
 * returns one line per broken rule, `file → specifier: rule`. It takes a root so the tests can also run it on tiny
 * deliberately broken trees and see each rule fail.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix } from 'node:path';
import ts from 'typescript';

/** The rule each violation names; the tests filter by these. */
export const RULES = {
  sql: 'SQL outside an area repository or src/db',
  areaStorage: "an area reaching another area's storage or jobs",
  pureIo: "I/O in an area's pure rules",
  doorStorage: 'a door reaching storage',
  coreDoor: 'the core importing a door',
  graphqlInCore: 'yoga or graphql in the core',
  cycle: 'import cycle',
  size: 'file over 300 lines',
} as const;
export type Rule = (typeof RULES)[keyof typeof RULES];

const SOURCE_ROOTS = ['src', 'schema', 'graphql-server', 'rest-compat', 'mcp'];
const DOORS = ['schema', 'graphql-server', 'rest-compat', 'mcp'];
const AREAS = ['orders', 'payments', 'risk', 'disputes', 'sites', 'notifications'];
const COMPOSITION_ROOT = ['src/server.ts', 'src/main.ts', 'src/index.ts'];
const MAX_LINES = 300;

const SQL_PACKAGES = ['kysely', 'better-sqlite3', 'pg'];
const SQL_CALLS = ['selectFrom', 'insertInto', 'updateTable', 'deleteFrom', 'prepare'];
const NODE_IO = ['fs', 'http', 'https', 'net', 'child_process', 'dgram'];
const IO_PACKAGES = [...SQL_PACKAGES, 'ioredis', 'ws', 'graphql-yoga'];
const GRAPHQL_PACKAGES = ['graphql', 'graphql-yoga', 'graphql-ws', 'graphql-jit'];
const GRAPHQL_SCOPES = ['@pothos/', '@envelop/', '@escape.tech/', '@graphql-yoga/'];
/** Plain pub/sub libraries that happen to live under yoga's scope: the bus may use them, nothing else. */
const EVENTS_ONLY = ['@graphql-yoga/subscription', '@graphql-yoga/redis-event-target'];

interface Import {
  specifier: string;
  /** `import type`, `export type`, all-`type` bindings, or `import('x').T` in a type: erased, never loaded. */
  typeOnly: boolean;
  /** Root-relative path of the project file it lands on, when it is relative and resolves. */
  target?: string;
}
interface SourceFile {
  path: string;
  lines: number;
  imports: Import[];
  sqlCalls: string[];
}

/** A file's area (`orders`, …) when it lives in one. */
function areaOf(path: string): string | undefined {
  const [top, area] = path.split('/');
  return top === 'src' && area && AREAS.includes(area) ? area : undefined;
}

/** The role its name's suffix gives a file in an area; 'rules' for every other (pure) file. */
function roleOf(path: string): string {
  return /-(tables|repository|service|job|client|processor)\.[jt]s$/u.exec(posix.basename(path))?.[1] ?? 'rules';
}

/** Only repositories and src/db talk SQL. */
const mayUseSql = (path: string): boolean => (!!areaOf(path) && roleOf(path) === 'repository') || path.startsWith('src/db/');
const isDoor = (path: string): boolean => DOORS.includes(path.split('/')[0]!);
const inCore = (path: string): boolean => path.startsWith('src/') && !COMPOSITION_ROOT.includes(path);

/** `node:fs/promises` → `fs`, `@pothos/core/x` → `@pothos/core`, `kysely/helpers` → `kysely`. */
function packageOf(specifier: string): string {
  const parts = specifier.replace(/^node:/u, '').split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

function listSources(root: string, dir: string): string[] {
  if (!existsSync(join(root, dir))) return [];
  return readdirSync(join(root, dir)).sort().flatMap((name) => {
    const path = posix.join(dir, name);
    if (statSync(join(root, path)).isDirectory()) return name === 'node_modules' ? [] : listSources(root, path);
    return /\.[jt]s$/u.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Where a relative specifier lands: as written, or its .ts twin (`./x.js` for `./x.ts`), or `x.ts`/`x/index.ts`. */
function resolveTarget(root: string, from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = posix.join(posix.dirname(from), specifier);
  const candidates = [base, base.replace(/\.js$/u, '.ts'), `${base}.ts`, `${base}/index.ts`];
  return candidates.find((path) => existsSync(join(root, path)) && statSync(join(root, path)).isFile());
}

function parse(root: string, path: string): SourceFile {
  const text = readFileSync(join(root, path), 'utf8');
  const kind = path.endsWith('.js') ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, kind);
  const imports: Import[] = [];
  const sqlCalls: string[] = [];
  const add = (node: ts.Node | undefined, typeOnly: boolean): void => {
    if (node && ts.isStringLiteralLike(node)) imports.push({ specifier: node.text, typeOnly, target: resolveTarget(root, path, node.text) });
  };
  const line = (node: ts.Node): number => source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) {
      const clause = node.importClause;
      const bindings = clause?.namedBindings;
      // `import { type A, type B }` is erased like `import type`; a default or namespace binding is a value.
      const allTypes = !!clause && !clause.name && !!bindings && ts.isNamedImports(bindings) && bindings.elements.length > 0 && bindings.elements.every((e) => e.isTypeOnly);
      add(node.moduleSpecifier, !!clause?.isTypeOnly || allTypes);
    } else if (ts.isExportDeclaration(node)) {
      const clause = node.exportClause;
      const allTypes = !!clause && ts.isNamedExports(clause) && clause.elements.length > 0 && clause.elements.every((e) => e.isTypeOnly);
      add(node.moduleSpecifier, node.isTypeOnly || allTypes);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      add(node.arguments[0], false); // dynamic import('…')
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      add(node.argument.literal, true); // type X = import('…').Y
    } else if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && SQL_CALLS.includes(node.expression.name.text)) {
      sqlCalls.push(`.${node.expression.name.text}( (line ${line(node)})`);
    } else if (ts.isTaggedTemplateExpression(node) && ts.isIdentifier(node.tag) && node.tag.text === 'sql') {
      sqlCalls.push(`sql\` (line ${line(node)})`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { path, lines: text.replace(/\n$/u, '').split('\n').length, imports, sqlCalls };
}

/** Rules 1–6: what one import may not do, given who imports it; each broken rule is returned. */
function importRules(from: string, imp: Import): Rule[] {
  const { specifier, typeOnly, target } = imp;
  const pkg = packageOf(specifier);
  const broken: Rule[] = [];
  const fromArea = areaOf(from);
  const toArea = target && areaOf(target);
  const toRole = target ? roleOf(target) : '';
  const toStorage = !!target && (target.startsWith('src/db/') || ['tables', 'repository', 'job'].includes(toRole));

  // 1. Only repositories and src/db talk SQL; a type from kysely (e.g. Selectable) is only a shape.
  if (!mayUseSql(from) && !typeOnly && !target && SQL_PACKAGES.includes(pkg)) broken.push(RULES.sql);
  // 2. Areas meet through services and events, so another area's storage and timing can change freely.
  if (fromArea && toArea && toArea !== fromArea && ['tables', 'repository', 'job'].includes(toRole)) broken.push(RULES.areaStorage);
  // 3. Pure rules stay testable without a database, a socket or a clock-driven job.
  if (fromArea && roleOf(from) === 'rules') {
    const io = target
      ? target.startsWith('src/db/') || target.startsWith('src/events/') || (!!toArea && ['repository', 'service', 'job', 'client', 'processor'].includes(toRole))
      : NODE_IO.includes(pkg) || IO_PACKAGES.includes(pkg);
    if (io) broken.push(RULES.pureIo);
  }
  // 4. Doors call services and render views; storage stays behind the services.
  if (isDoor(from) && (toStorage || (!target && SQL_PACKAGES.includes(pkg)))) broken.push(RULES.doorStorage);
  // 5 and 6. The core knows no transport; only the composition root wires the doors in.
  if (inCore(from) && target && isDoor(target)) broken.push(RULES.coreDoor);
  if (inCore(from) && !target) {
    const graphql = GRAPHQL_PACKAGES.includes(pkg) || GRAPHQL_SCOPES.some((scope) => pkg.startsWith(scope));
    if (graphql && !(EVENTS_ONLY.includes(pkg) && from.startsWith('src/events/'))) broken.push(RULES.graphqlInCore);
  }
  return broken;
}

/** Rule 7: Tarjan's strongly connected components; each one with two files or more (or a self-import) is a cycle. */
function cycles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const connect = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        connect(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || graph.get(node)?.includes(node)) found.push(component);
  };
  for (const node of graph.keys()) if (!index.has(node)) connect(node);
  return found;
}

/** One concrete loop through a component (shortest way back to its first file), so the message reads as a path. */
function loopThrough(component: string[], graph: Map<string, string[]>): string[] {
  const members = new Set(component);
  const start = [...component].sort()[0]!;
  const cameFrom = new Map<string, string>();
  const queue = [start];
  for (let i = 0; i < queue.length; i += 1) {
    for (const next of graph.get(queue[i]!) ?? []) {
      if (next === start) {
        const path = [start];
        for (let at: string | undefined = queue[i]; at && at !== start; at = cameFrom.get(at)) path.splice(1, 0, at);
        return [...path, start];
      }
      if (members.has(next) && !cameFrom.has(next)) {
        cameFrom.set(next, queue[i]!);
        queue.push(next);
      }
    }
  }
  return [...component, component[0]!];
}

/** Every violation of the layout's rules under `root`, as `file → specifier: rule` lines. */
export function checkArchitecture(root: string): string[] {
  const files = SOURCE_ROOTS.flatMap((dir) => listSources(root, dir)).map((path) => parse(root, path));
  const violations: string[] = [];
  for (const file of files) {
    for (const imp of file.imports) for (const rule of importRules(file.path, imp)) violations.push(`${file.path} → ${imp.specifier}: ${rule}`);
    if (!mayUseSql(file.path)) for (const call of file.sqlCalls) violations.push(`${file.path} → ${call}: ${RULES.sql}`);
    if (file.lines > MAX_LINES) violations.push(`${file.path} → ${file.lines} lines: ${RULES.size}`);
  }
  // Type imports count too: a type cycle still couples the files and hides the direction of the dependency.
  const graph = new Map(files.map((file) => [file.path, [...new Set(file.imports.flatMap((imp) => (imp.target ? [imp.target] : [])))]]));
  for (const component of cycles(graph)) violations.push(`${loopThrough(component, graph).join(' → ')}: ${RULES.cycle}`);
  return violations;
}

/** The violations of one rule. */
export function violationsOf(violations: string[], rule: Rule): string[] {
  return violations.filter((line) => line.endsWith(`: ${rule}`));
}
