// The package build (`npm run build`, run by `prepare`): a clean dist/, the runtime TypeScript compiled with its
// declarations (tsconfig.build.json), then the files the runtime reads from disk beside their modules (the pages'
// scripts, styles and operations), so one relative path serves both the sources under tsx and the build.
import { execFileSync } from 'node:child_process';
import { cpSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';

rmSync('dist', { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
for (const dir of ['src', 'graphql-server', 'rest-compat']) {
  cpSync(dir, `dist/${dir}`, { recursive: true, filter: (path) => !path.endsWith('.ts') });
}
// Redoc's standalone bundle, which /docs serves (rest-compat/agents.ts): redoc itself is a development dependency,
// so an installed package does not bring React and the rest of Redoc's tree for this one file.
cpSync(createRequire(import.meta.url).resolve('redoc/bundles/redoc.standalone.js'), 'dist/rest-compat/redoc.standalone.js');
