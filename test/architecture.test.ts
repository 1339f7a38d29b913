/**
 * Data flows one way (DESIGN.md): front doors → services → db/events/… → domain. This reads every import
 * specifier and fails on an edge that runs the wrong way.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');

function files(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(ROOT, path)).isDirectory()) return files(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

function imports(file: string): string[] {
  const source = readFileSync(join(ROOT, file), 'utf8');
  return [...source.matchAll(/^\s*(?:import|export)\b[^'"]*?from\s+['"]([^'"]+)['"]/gmu)].map((m) => m[1]!);
}

/** The repository folder an import lands in (`src/db`, `schema`, …), or the package name. */
function target(file: string, specifier: string): string {
  if (!specifier.startsWith('.')) return specifier;
  const path = relative(ROOT, resolve(ROOT, file, '..', specifier));
  const [top, second] = path.split('/');
  return top === 'src' && second && !second.endsWith('.ts') ? `src/${second}` : top!;
}

const FRONT_DOORS = ['schema', 'resolvers', 'rest-compat'];
const IO_PACKAGES = /^(node:)?(fs|http|https|net|child_process)$|^(kysely|better-sqlite3|pg|ioredis|graphql-yoga|ws)$/u;

describe('architecture', () => {
  it('keeps src/domain pure: no I/O packages and nothing from db, events, services or the doors', () => {
    const offenders = files('src/domain').flatMap((file) =>
      imports(file)
        .filter((s) => IO_PACKAGES.test(s) || /^src\/(db|events|services|scheduler|notifications|payments|http)$/u.test(target(file, s)) || FRONT_DOORS.includes(target(file, s)))
        .map((s) => `${file} → ${s}`),
    );
    expect(offenders).toEqual([]);
  });

  it('lets no file in src/ import a front door, except the composition root', () => {
    const offenders = files('src')
      .filter((file) => !['src/server.ts', 'src/main.ts', 'src/index.ts'].includes(file))
      .flatMap((file) => imports(file).filter((s) => FRONT_DOORS.includes(target(file, s))).map((s) => `${file} → ${s}`));
    expect(offenders).toEqual([]);
  });

  it('keeps the doors off the database: no door imports src/db or kysely', () => {
    const offenders = FRONT_DOORS.flatMap(files).flatMap((file) =>
      imports(file)
        .filter((s) => target(file, s) === 'src/db' || s === 'kysely' || s === 'better-sqlite3')
        .map((s) => `${file} → ${s}`),
    );
    expect(offenders).toEqual([]);
  });

  it('keeps services free of transports', () => {
    const offenders = files('src/services').flatMap((file) =>
      imports(file)
        .filter((s) => FRONT_DOORS.includes(target(file, s)) || /^(node:)?https?$|^graphql-yoga$|^ws$/u.test(s))
        .map((s) => `${file} → ${s}`),
    );
    expect(offenders).toEqual([]);
  });

  it('detects a wrong-way import (the check itself can fail)', () => {
    expect(target('src/domain/order.ts', '../db/database.ts')).toBe('src/db');
    expect(target('src/services/x.ts', '../../rest-compat/http.ts')).toBe('rest-compat');
  });
});
