/**
 * The options a sleeve can be ordered with (document 1 §2 SleeveOptions). They change during the event:
 * staff replace the whole set; orders already made keep the values they were made with.
 */
export const CHOICE_KINDS = ['size', 'font', 'thread'] as const;
export type ChoiceKind = (typeof CHOICE_KINDS)[number];

export interface Choice {
  value: string;
  /** Threads: the colour (#rrggbb) the previews draw the stitch text in. */
  color?: string;
  /** Fonts: the CSS font-family list the previews draw the stitch text with. */
  family?: string;
}

export interface SleeveOptionSet {
  version: number;
  sizes: Choice[];
  fonts: Choice[];
  threads: Choice[];
  charLimit: number;
}

export type SleeveOptionSetInput = Omit<SleeveOptionSet, 'version'>;

export const CHAR_LIMIT_RANGE = { min: 1, max: 60 } as const;
const CHOICE_VALUE = /^[\p{L}\p{N}][\p{L}\p{N} .'&-]{0,39}$/u;
const COLOR = /^#[0-9a-fA-F]{6}$/u;
/** A CSS font-family list: names, quotes, commas and spaces; nothing that could end the attribute it is drawn in. */
const FAMILY = /^[\p{L}\p{N} ,'"-]{1,200}$/u;

/** A realistic set for the first minutes of an event, before staff change anything. */
export const DEFAULT_OPTIONS: SleeveOptionSetInput = {
  sizes: [{ value: '13-inch' }, { value: '14-inch' }, { value: '15-inch' }, { value: '16-inch' }],
  // Families of fonts every system has, or near enough: the previews draw with the attendee's own fonts (no web
  // font is loaded from anywhere), so each list ends in a generic family.
  fonts: [
    { value: 'Block', family: '"Arial Black", "Helvetica Neue", Arial, "DejaVu Sans", sans-serif' },
    { value: 'Script', family: '"Brush Script MT", "Segoe Script", "URW Chancery L", cursive' },
    { value: 'Serif', family: 'Georgia, "Times New Roman", "DejaVu Serif", serif' },
    { value: 'Monogram', family: 'Didot, "Bodoni 72", "Book Antiqua", Palatino, "DejaVu Serif", serif' },
  ],
  threads: [
    { value: 'Gold', color: '#c9a227' },
    { value: 'Silver', color: '#b8bcc2' },
    { value: 'Navy', color: '#1f2f5c' },
    { value: 'Red', color: '#c0262d' },
    { value: 'White', color: '#f7f7f2' },
    { value: 'Black', color: '#151515' },
  ],
  charLimit: 20,
};

export interface OptionSetProblem {
  field: string;
  message: string;
}

/** Checks a set staff want to publish; returns the first problem, or null. */
export function optionSetProblem(input: SleeveOptionSetInput): OptionSetProblem | null {
  for (const [field, list] of [
    ['sizes', input.sizes],
    ['fonts', input.fonts],
    ['threads', input.threads],
  ] as const) {
    if (list.length === 0) return { field, message: `At least one value is needed in ${field}.` };
    if (list.length > 50) return { field, message: `At most 50 values are allowed in ${field}.` };
    const seen = new Set<string>();
    for (const choice of list) {
      if (!CHOICE_VALUE.test(choice.value)) {
        return { field, message: `"${choice.value}" is not a valid value: 1 to 40 letters, digits, spaces or . ' & -` };
      }
      const key = choice.value.toLowerCase();
      if (seen.has(key)) return { field, message: `"${choice.value}" appears twice in ${field}.` };
      seen.add(key);
      if (choice.color !== undefined && !COLOR.test(choice.color)) {
        return { field, message: `The colour of "${choice.value}" must look like #1f2f5c.` };
      }
      if (choice.family !== undefined && !FAMILY.test(choice.family)) {
        return { field, message: `The font family of "${choice.value}" must be a CSS font-family list, like Georgia, serif.` };
      }
    }
  }
  const { min, max } = CHAR_LIMIT_RANGE;
  if (!Number.isInteger(input.charLimit) || input.charLimit < min || input.charLimit > max) {
    return { field: 'charLimit', message: `charLimit must be a whole number from ${min} to ${max}.` };
  }
  return null;
}
