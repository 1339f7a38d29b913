/**
 * The pages' plain ES modules and style sheets in src/pages/app/, served as they are: no build step, no CDN.
 * The files are read once at start; only those names exist (no part of an address reaches the disk).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

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

/** The file served at `/assets/app/<name>`, or undefined. */
export function appAsset(name: string): AppAsset | undefined {
  return files.get(name);
}
