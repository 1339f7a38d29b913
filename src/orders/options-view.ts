/** SleeveOptions of document 1 §2 as both doors show it, with a preview image URL per choice, and the preview URL of an order. */
import type { ChoiceKind, SleeveOptionSet } from './sleeve-options.ts';

export interface ChoiceView {
  value: string;
  image: string;
  /** threadChoices: the thread's colour, #rrggbb. */
  color?: string;
  /** fontChoices: the CSS font-family list the previews draw with. */
  family?: string;
}

export interface OptionsView {
  version: number;
  sizes: string[];
  fonts: string[];
  threads: string[];
  charLimit: number;
  sizeChoices: ChoiceView[];
  fontChoices: ChoiceView[];
  threadChoices: ChoiceView[];
}

export function choiceImageUrl(publicUrl: string, kind: ChoiceKind, value: string): string {
  return `${publicUrl}/images/options/${kind}/${encodeURIComponent(value)}.svg`;
}

export function viewOptions(set: SleeveOptionSet, publicUrl: string): OptionsView {
  // Options as data (docs/ordering.md#options-as-data): each choice with what its previews are drawn from.
  const choices = (kind: ChoiceKind, list: SleeveOptionSet['sizes']): ChoiceView[] =>
    list.map((c) => ({
      value: c.value,
      image: choiceImageUrl(publicUrl, kind, c.value),
      ...(kind === 'thread' && c.color ? { color: c.color } : {}),
      ...(kind === 'font' && c.family ? { family: c.family } : {}),
    }));
  return {
    version: set.version,
    sizes: set.sizes.map((c) => c.value),
    fonts: set.fonts.map((c) => c.value),
    threads: set.threads.map((c) => c.value),
    charLimit: set.charLimit,
    sizeChoices: choices('size', set.sizes),
    fontChoices: choices('font', set.fonts),
    threadChoices: choices('thread', set.threads),
  };
}

/**
 * The picture of what will be stitched (issue 18): `/preview.svg` with the order's size, font, thread and text, at
 * PUBLIC_URL. Built from what is drawn, never from the payToken, so the address can be shown, logged or cached by
 * any chat widget without giving the order away (docs/ordering.md#the-preview-image).
 */
export function previewImageUrl(publicUrl: string, choice: { size: string; font: string; thread: string; stitchText: string }): string {
  const query = new URLSearchParams({ size: choice.size, font: choice.font, thread: choice.thread, text: choice.stitchText });
  return `${publicUrl}/preview.svg?${query.toString().replace(/\+/gu, '%20')}`;
}
