/**
 * Sleeve options: the current set is read from the database once and kept in memory until it changes
 * (here, or on another instance through the bus), so the options endpoint costs no query per request.
 */
import { isUniqueViolation } from '../db/database.ts';
import { DomainError } from '../kernel/errors.ts';
import {
  DEFAULT_OPTIONS,
  optionSetProblem,
  type Choice,
  type SleeveOptionSet,
  type SleeveOptionSetInput,
} from './sleeve-options.ts';
import { insertOptionSet, latestOptionSet } from './settings-repository.ts';
import { lookOf, withLooks } from './choice-looks.ts';
import type { ServiceDeps } from '../kernel/service-deps.ts';
import { transaction } from '../db/transaction.ts';

export interface OptionsService {
  current(): Promise<SleeveOptionSet>;
  /** The set in memory, when it is loaded: lets the hottest path skip a promise. */
  cached(): SleeveOptionSet | undefined;
  /**
   * Staff: publish a new set. Orders already made keep their options. With `baseVersion` (the version the set was
   * edited from), refused when another set was published since: two staff editing at once, the second publish
   * silently brought back what the first withdrew.
   */
  update(input: SleeveOptionSetInput, baseVersion?: number | null): Promise<SleeveOptionSet>;
  /** Forget the cached set (another instance changed it). */
  invalidate(): void;
  /**
   * What a preview draws `font` and `thread` with (docs/ordering.md#options-as-data): the current set's looks, else the
   * defaults' (an order keeps a choice staff withdrew since), else none (the drawing's fallbacks).
   */
  looks(font: string, thread: string): Promise<{ family?: string; color?: string }>;
}

/** A stored set, whatever its age: sets stored before threads carried colours read with the defaults' looks. */
function readStored(row: { version: number; body: string }): SleeveOptionSet {
  const { set } = withLooks(JSON.parse(row.body) as SleeveOptionSetInput, [], { greyWhenUnknown: true });
  return { version: row.version, ...set };
}

export function createOptionsService({ database, clock, bus }: ServiceDeps): OptionsService {
  const { db } = database;
  let cached: Promise<SleeveOptionSet> | null = null;
  let loaded: SleeveOptionSet | undefined;

  async function load(): Promise<SleeveOptionSet> {
    const row = await latestOptionSet(db);
    if (row) return readStored(row);
    // First start: the default set becomes version 1. A racing instance may insert it first; that is fine.
    try {
      await insertOptionSet(db, 1, JSON.stringify(DEFAULT_OPTIONS), clock.now());
    } catch (error) {
      // Only the race is answered here; an outage (a lost connection, a locked file) stays what it is: 503, not 500.
      if (!isUniqueViolation(error)) throw error;
      const again = await latestOptionSet(db);
      if (again) return readStored(again);
      throw new Error('could not store the default sleeve options');
    }
    return { version: 1, ...DEFAULT_OPTIONS };
  }

  const service: OptionsService = {
    current() {
      cached ??= load().then(
        (set) => (loaded = set),
        (error: unknown) => {
          cached = null;
          throw error;
        },
      );
      return cached;
    },
    cached: () => loaded,
    async update(input, baseVersion) {
      const problem = optionSetProblem(input);
      if (problem) throw new DomainError('validation_failed', problem.message, { field: problem.field });
      const tidy = (list: readonly Choice[]): Choice[] =>
        list.map((c) => ({
          value: c.value.trim(),
          ...(c.color ? { color: c.color.toLowerCase() } : {}),
          ...(c.family ? { family: c.family.trim() } : {}),
        }));
      // A choice republished without its look keeps the one it has now (docs/ordering.md#options-as-data).
      const { set: clean, missingColor } = withLooks(
        { sizes: tidy(input.sizes), fonts: tidy(input.fonts), threads: tidy(input.threads), charLimit: input.charLimit },
        [await service.current()],
        { greyWhenUnknown: false },
      );
      if (missingColor !== null) {
        throw new DomainError('validation_failed', `The thread "${missingColor}" needs a colour, like #1f2f5c.`, { field: 'threads' });
      }
      const stale = (now: number) => {
        // This instance's copy is older than what the refusal names (the other instance's announcement may not have
        // come yet): dropped now, so "read the options again" here reads the set the refusal is about.
        if ((loaded?.version ?? 0) < now) service.invalidate();
        return new DomainError('validation_failed', `Version ${now} was published after version ${baseVersion}, which this set was edited from. Read the options again and make the change on version ${now}.`, { field: 'baseVersion' });
      };
      let version: number;
      try {
        version = await transaction(db, async (trx) => {
          const now = (await latestOptionSet(trx))?.version ?? 0;
          // Compared in the transaction that writes; the version, the table's key, settles two that read the same.
          if (baseVersion != null && baseVersion !== now) throw stale(now);
          await insertOptionSet(trx, now + 1, JSON.stringify(clean), clock.now());
          return now + 1;
        });
      } catch (error) {
        // Two publishes from one version at once, on any instances: the version is the key, so one insert fails.
        if (!isUniqueViolation(error)) throw error;
        if (baseVersion != null) throw stale((await latestOptionSet(db))?.version ?? 0);
        throw new DomainError('unavailable', 'Another set of options was published at the same moment. Try again.', { retryAfter: 1 });
      }
      const set = { version, ...clean };
      cached = Promise.resolve(set);
      loaded = set;
      bus.publish('optionsChanged', { version });
      return set;
    },
    invalidate() {
      cached = null;
      loaded = undefined;
    },
    async looks(font, thread) {
      const set = await service.current();
      const known = (list: 'fonts' | 'threads', value: string) => lookOf(set[list], value) ?? lookOf(DEFAULT_OPTIONS[list], value);
      const family = known('fonts', font)?.family;
      const color = known('threads', thread)?.color;
      return { ...(family ? { family } : {}), ...(color ? { color } : {}) };
    },
  };
  return service;
}
