/**
 * Answers kept for the queries every screen repeats (docs/graphql.md#kept-answers). `{ sleeveOptions { … } }` is
 * asked by every attendee's page and every pickup display, and its answer changes only when staff publish a new
 * option set: the fast path (fast-path.ts) answers it with the bytes it made last time for as long as the options
 * service holds the same set, and runs and serialises it again as soon as the set is another one — published on this
 * instance, or on another and synced here (src/orders/cache-sync-service.ts). Nothing expires by time, so nothing is
 * ever stale by a few seconds either.
 *
 * Only execution and serialisation are saved: the rate limit, the operation's metric, the media type and CORS are
 * done for every request as before. An operation takes part when it is a query without variables whose root fields
 * (no fragments, no directives at the root; `__typename` allowed) all declare the snapshot their answer follows
 * (schema/context.ts, SNAPSHOT). An answer with errors or extensions is never kept, nor one that was not ready at
 * once (a resolver that waited: the snapshot was not loaded yet).
 */
import { Kind, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import { SNAPSHOT, type SnapshotOf } from '../schema/context.ts';
import type { Services } from '../src/services.ts';

export class AnswerCache {
  /** The snapshots `body` was made from, one per root field in order. */
  private madeFrom: ReadonlyArray<object | undefined> = [];
  private body: string | undefined;

  constructor(private readonly reads: readonly SnapshotOf[]) {}

  /** The kept answer, when every snapshot is still the one it was made from (no allocation: this runs per request). */
  kept(services: Services): string | undefined {
    if (this.body === undefined) return undefined;
    for (let i = 0; i < this.reads.length; i++) if (this.reads[i]!(services) !== this.madeFrom[i]) return undefined;
    return this.body;
  }

  /**
   * The snapshots now, read before the operation runs (so that an answer is never kept with a snapshot newer than
   * what it was made from), or undefined when one is not loaded.
   */
  snapshots(services: Services): object[] | undefined {
    const now: object[] = [];
    for (const read of this.reads) {
      const snapshot = read(services);
      if (snapshot === undefined) return undefined;
      now.push(snapshot);
    }
    return now;
  }

  keep(madeFrom: object[], body: string): void {
    this.madeFrom = madeFrom;
    this.body = body;
  }
}

/** The cache of an operation whose answer follows from snapshots alone (above), or null. */
export function answerCacheFor(schema: GraphQLSchema, operation: OperationDefinitionNode): AnswerCache | null {
  if (operation.operation !== 'query' || operation.variableDefinitions?.length || operation.directives?.length) return null;
  const fields = schema.getQueryType()?.getFields();
  if (!fields) return null;
  const reads: SnapshotOf[] = [];
  for (const selection of operation.selectionSet.selections) {
    if (selection.kind !== Kind.FIELD || selection.directives?.length) return null;
    if (selection.name.value === '__typename') continue;
    const read = fields[selection.name.value]?.extensions?.[SNAPSHOT];
    if (typeof read !== 'function') return null;
    reads.push(read as SnapshotOf);
  }
  return reads.length > 0 ? new AnswerCache(reads) : null;
}
