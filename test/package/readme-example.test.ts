/**
 * The README's package example stays what the tests run: test/package-entry.test.ts is the same code with only the
 * import pointed at the source, the install line names the tarball `npm pack` makes today, and the install scripts
 * it asks you to allow are the ones this project allows.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { readmeExample, ROOT } from './readme-example.ts';

it('test/package-entry.test.ts is the README example with only its import changed', () => {
  const { source } = readmeExample();
  const entry = readFileSync(join(ROOT, 'test/package-entry.test.ts'), 'utf8');
  // Both start with comments of their own (a path in your app; what this file is); the code after them is one.
  const code = (text: string) => text.slice(text.indexOf('\nimport ') + 1);
  expect(code(entry)).toBe(code(source).replace("from 'sleeve-gateway';", "from '../src/index.ts';"));
  expect(source).toContain("from 'sleeve-gateway';");
});

it('the README says what to install: the tarball of this version, or the checkout copied, with graphql and vitest', () => {
  const { name, version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
  const { section } = readmeExample();
  expect(section).toContain(`npm install -D ../${name}/${name}-${version}.tgz graphql vitest\n`);
  expect(section).toContain(`npm install -D --install-links ../${name} graphql vitest`);
});

it("the install scripts and overrides the README asks you to add are this project's own (package.json allowScripts, overrides)", () => {
  const { allowScripts, overrides } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { allowScripts: Record<string, boolean>; overrides: Record<string, string> };
  expect(readmeExample().manifest).toEqual({ allowScripts, overrides });
  expect(allowScripts['better-sqlite3']).toBe(true);
});
