/**
 * Options as data (issue 18, docs/ordering.md#options-as-data): every thread carries its colour and every font the
 * CSS family the previews draw it with, so no page has to recover them from a picture. A choice given without its
 * look keeps the one it had (in the set published before, then in the defaults):
 *
 * - a set stored before threads carried colours reads with the defaults' colours (a thread the defaults do not
 *   know is drawn grey);
 * - a client that republishes `{ value: 'Gold' }` keeps Gold's colour; a new thread without a colour is refused
 *   (the preview would show the wrong colour), a new font without a family is drawn with its own name first.
 */
import { DEFAULT_OPTIONS, type Choice, type SleeveOptionSetInput } from './sleeve-options.ts';

export const FALLBACK_THREAD_COLOR = '#888888';

/** A family list for a font named by staff without one: its own name, then the system's sans-serif. */
export function familyFromName(font: string): string {
  return `"${font.replace(/"/gu, '')}", system-ui, sans-serif`;
}

type Looks = Map<string, Choice>;

function looksOf(lists: ReadonlyArray<readonly Choice[]>): Looks {
  const looks: Looks = new Map();
  // Earlier lists win: they are the closer source (the set before, then the defaults).
  for (const list of [...lists].reverse()) for (const c of list) looks.set(c.value.toLowerCase(), c);
  return looks;
}

const key = (c: Choice) => c.value.toLowerCase();

/**
 * `input` with every thread's colour and every font's family filled from `earlier` (the closest first) and then the
 * defaults. Answers the first thread whose colour is nowhere to be found in `missingColor`, or fills it grey when
 * `greyWhenUnknown` (a stored set, which must always read).
 */
export function withLooks(
  input: SleeveOptionSetInput,
  earlier: readonly SleeveOptionSetInput[],
  { greyWhenUnknown }: { greyWhenUnknown: boolean },
): { set: SleeveOptionSetInput; missingColor: string | null } {
  const sources = [...earlier, DEFAULT_OPTIONS];
  const threadLooks = looksOf(sources.map((s) => s.threads));
  const fontLooks = looksOf(sources.map((s) => s.fonts));
  let missingColor: string | null = null;
  const threads = input.threads.map((t) => {
    const color = t.color ?? threadLooks.get(key(t))?.color ?? (greyWhenUnknown ? FALLBACK_THREAD_COLOR : undefined);
    if (!color) missingColor ??= t.value;
    return { value: t.value, ...(color ? { color } : {}) };
  });
  const fonts = input.fonts.map((f) => ({ value: f.value, family: f.family ?? fontLooks.get(key(f))?.family ?? familyFromName(f.value) }));
  const sizes = input.sizes.map((s) => ({ value: s.value }));
  return { set: { sizes, fonts, threads, charLimit: input.charLimit }, missingColor };
}

/** The look of `value` among `choices`, case aside. */
export function lookOf(choices: readonly Choice[], value: string): Choice | undefined {
  const wanted = value.toLowerCase();
  return choices.find((c) => key(c) === wanted);
}
