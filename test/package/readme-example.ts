/**
 * The README's "Testing against it" section and its example test, read from README.md itself: the tests run
 * exactly what the README shows, so the README cannot drift from what is tested.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '../..');

export interface ReadmeExample {
  /** The whole section, from its heading to the next `## ` heading. */
  section: string;
  /** Where the example says it lives in your app (its first line, `// your-app/<file>`). */
  file: string;
  /** The fenced `ts` block, byte for byte, with the newline that ends its last line. */
  source: string;
  /** The fenced `json` block: what it asks you to add to your package.json (npm's `allowScripts`). */
  manifest: Record<string, unknown>;
}

export function readmeExample(): ReadmeExample {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf('\n## Testing against it\n');
  if (start < 0) throw new Error('README.md has no "## Testing against it" section');
  const end = readme.indexOf('\n## ', start + 1);
  const section = readme.slice(start + 1, end < 0 ? undefined : end + 1);
  const block = /^```ts\n([\s\S]*?\n)```$/mu.exec(section);
  if (!block) throw new Error('README.md\'s "Testing against it" has no ```ts block');
  const source = block[1]!;
  const file = /^\/\/ your-app\/(\S+)/u.exec(source)?.[1];
  if (!file) throw new Error('the README example does not start with `// your-app/<file>`');
  const json = /^```json\n([\s\S]*?\n)```$/mu.exec(section);
  if (!json) throw new Error('README.md\'s "Testing against it" has no ```json block');
  return { section, file, source, manifest: JSON.parse(json[1]!) as Record<string, unknown> };
}
