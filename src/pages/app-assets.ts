/**
 * The pages' plain ES modules and style sheets in src/pages/app/, served as they are: no build step, no CDN.
 * The files are read once at start; only those names exist (no part of an address reaches the disk). One more
 * module, operations.js, is made from the trusted documents' manifest (trusted-operations.ts): the pages send those
 * hashes instead of query text.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { operationsModule } from './trusted-operations.ts';

export interface AppAsset {
  body: string;
  contentType: string;
}

const DIRECTORY = join(import.meta.dirname, 'app');
const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

const files = new Map<string, AppAsset>(
  readdirSync(DIRECTORY).flatMap((name) => {
    const contentType = TYPES[name.slice(name.lastIndexOf('.'))];
    return contentType ? [[name, { body: readFileSync(join(DIRECTORY, name), 'utf8'), contentType }] as const] : [];
  }),
);
files.set('operations.js', { body: operationsModule(), contentType: TYPES['.js']! });

/** The file served at `/assets/app/<name>`, or undefined. */
export function appAsset(name: string): AppAsset | undefined {
  return files.get(name);
}
