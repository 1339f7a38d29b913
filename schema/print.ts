/** `npm run schema:print`: writes schema/schema.graphql from the code (sorted, so diffs stay small). */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { printSchema } from 'graphql';
import { schema } from './index.ts';

export const SCHEMA_FILE = fileURLToPath(new URL('./schema.graphql', import.meta.url));

export function printedSchema(): string {
  return printSchema(schema) + '\n';
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(SCHEMA_FILE, printedSchema());
  console.log(`wrote ${SCHEMA_FILE}`);
}
