/**
 * Serves the pages' plain ES modules and style sheets from src/pages/app/ as they are: no build step, no CDN.
 * The files are read once at start; only those names are served (no path from the address reaches the disk).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { text, type HttpRequest, type HttpResponse } from '../../rest-compat/http.ts';
import { notFound } from '../../rest-compat/routes.ts';

const DIRECTORY = join(import.meta.dirname, 'app');
const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

const files = new Map(
  readdirSync(DIRECTORY)
    .filter((name) => Object.keys(TYPES).some((ext) => name.endsWith(ext)))
    .map((name) => [name, { body: readFileSync(join(DIRECTORY, name), 'utf8'), type: TYPES[name.slice(name.lastIndexOf('.'))]! }]),
);

/** GET /assets/app/:file */
export async function appAsset(request: HttpRequest, name: string): Promise<HttpResponse> {
  const file = files.get(name);
  if (!file) return notFound(request);
  const response = text(200, file.body, file.type);
  // Short: a redeploy during the event reaches open pages at their next load.
  response.headers['cache-control'] = 'public, max-age=60';
  return response;
}
