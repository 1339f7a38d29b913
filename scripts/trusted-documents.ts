/**
 * `npx tsx scripts/trusted-documents.ts`: writes src/pages/operations/manifest.json, the trusted documents' manifest
 * (docs/graphql.md#trusted-documents), from the pages' operations in src/pages/operations/*.graphql.
 *
 * Each file holds one named definition: an operation, or a fragment the operations share. A manifest entry is one
 * operation with the fragments it uses (transitively), printed by graphql-js so the text does not depend on how a
 * file is indented; its id is the SHA-256 of that text, in hex — what a page sends as
 * `extensions.persistedQuery.sha256Hash` and what Apollo's automatic persisted queries compute for the same text.
 * The format is Apollo's persisted query manifest (`apollo-persisted-query-manifest`, version 1), sorted by name,
 * so a diff shows exactly which operation changed. test/graphql/trusted-documents.test.ts fails when it is stale.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Kind, parse, print, visit, type DefinitionNode, type FragmentDefinitionNode, type OperationDefinitionNode } from 'graphql';

export const OPERATIONS_DIR = fileURLToPath(new URL('../src/pages/operations/', import.meta.url));
export const MANIFEST_FILE = join(OPERATIONS_DIR, 'manifest.json');

export interface ManifestOperation {
  id: string;
  name: string;
  type: 'query' | 'mutation' | 'subscription';
  body: string;
}

export interface Manifest {
  format: 'apollo-persisted-query-manifest';
  version: 1;
  operations: ManifestOperation[];
}

export const sha256Hex = (text: string): string => createHash('sha256').update(text).digest('hex');

/** Every definition in the directory, by name; a file that is not exactly one named definition is refused. */
function readDefinitions(dir: string): Map<string, OperationDefinitionNode | FragmentDefinitionNode> {
  const definitions = new Map<string, OperationDefinitionNode | FragmentDefinitionNode>();
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.graphql')).sort()) {
    const document = parse(readFileSync(join(dir, file), 'utf8'));
    const [definition, ...rest] = document.definitions;
    if (!definition || rest.length > 0 || !isNamed(definition)) {
      throw new Error(`${file}: one named operation or fragment per file.`);
    }
    const name = definition.name!.value;
    if (`${name}.graphql` !== file) throw new Error(`${file}: the file is named after its definition (${name}.graphql).`);
    definitions.set(name, definition);
  }
  return definitions;
}

function isNamed(definition: DefinitionNode): definition is OperationDefinitionNode | FragmentDefinitionNode {
  return (definition.kind === Kind.OPERATION_DEFINITION || definition.kind === Kind.FRAGMENT_DEFINITION) && !!definition.name;
}

/** The fragments `node` spreads, and those they spread, in name order. */
function fragmentsOf(node: OperationDefinitionNode, fragments: Map<string, FragmentDefinitionNode>): FragmentDefinitionNode[] {
  const used = new Map<string, FragmentDefinitionNode>();
  const pending: (OperationDefinitionNode | FragmentDefinitionNode)[] = [node];
  while (pending.length > 0) {
    visit(pending.pop()!, {
      FragmentSpread(spread) {
        const name = spread.name.value;
        if (used.has(name)) return;
        const fragment = fragments.get(name);
        if (!fragment) throw new Error(`${node.name!.value}: no fragment ${name} in src/pages/operations/.`);
        used.set(name, fragment);
        pending.push(fragment);
      },
    });
  }
  return [...used.values()].sort((a, b) => a.name.value.localeCompare(b.name.value));
}

export function buildManifest(dir: string = OPERATIONS_DIR): Manifest {
  const definitions = readDefinitions(dir);
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const [name, d] of definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(name, d);
  const operations: ManifestOperation[] = [];
  for (const [name, d] of definitions) {
    if (d.kind !== Kind.OPERATION_DEFINITION) continue;
    const body = print({ kind: Kind.DOCUMENT, definitions: [d, ...fragmentsOf(d, fragments)] });
    operations.push({ id: sha256Hex(body), name, type: d.operation, body });
  }
  operations.sort((a, b) => a.name.localeCompare(b.name));
  return { format: 'apollo-persisted-query-manifest', version: 1, operations };
}

export function printedManifest(dir?: string): string {
  return JSON.stringify(buildManifest(dir), null, 2) + '\n';
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(MANIFEST_FILE, printedManifest());
  console.log(`wrote ${MANIFEST_FILE}`);
}
