/**
 * Whether a group-commit batch waits for the disk at its COMMIT (docs/running.md#asynchronous-commit), on SQLite.
 *
 * A transaction opened by withAsynchronousCommit (asynchronous-commit.ts) records only work that may happen again:
 * a webhook attempt and the next claims of its endpoint. Lost in a power cut, that work is repeated (the delivery
 * is sent again, at least once), never lost. With `synchronous = FULL` a batch of only such transactions commits
 * as with NORMAL: atomic, and safe from a crash of the process, without the sync that costs more than the batch.
 *
 * SQLite refuses to change `synchronous` inside a transaction, so a batch is of one kind from its BEGIN: begun by a
 * transaction that may repeat, it runs under NORMAL until it ends, and any other transaction arriving meanwhile
 * first has that batch committed and begins one of its own under the level configured. A transaction that may
 * repeat joins a batch that syncs as it is: more than it needs, never less. The level configured is put back as soon
 * as the batch ends, committed or rolled back, so nothing else ever runs under NORMAL. A later synced COMMIT also
 * syncs the WAL frames of every batch before it, so a power cut can only take back batches after the last sync.
 */
import type { KeptStatements } from './sqlite-statements.ts';

export class BatchDurability {
  /** `synchronous` as configured (2 = FULL, 3 = EXTRA); null when it is already below FULL, so nothing changes. */
  readonly #configured: number | null;
  /**
   * The open batch began under NORMAL. A field, read by the driver before it calls anything here, so a batch that
   * syncs, every request's, runs no code of this file (bench/touched-files.ts counts the files a request runs).
   */
  relaxed = false;

  constructor(private readonly statements: KeptStatements) {
    const [row] = statements.prepare('PRAGMA synchronous').all([]) as Array<{ synchronous: number }>;
    this.#configured = row && row.synchronous >= 2 ? row.synchronous : null;
  }

  /** Right before the BEGIN of a batch begun by a transaction that may repeat. */
  beginRelaxed(): void {
    if (this.#configured === null) return;
    this.statements.prepare('PRAGMA synchronous = NORMAL').run([]);
    this.relaxed = true;
  }

  /** Once no transaction is open: the relaxed batch ended (or its BEGIN failed). */
  endRelaxed(): void {
    this.relaxed = false;
    this.statements.prepare(`PRAGMA synchronous = ${this.#configured}`).run([]);
  }
}
