/** SleeveOptions of document 1 §2 as both doors show it, with a preview image URL per choice. */
import type { ChoiceKind, SleeveOptionSet } from './sleeve-options.ts';

export interface ChoiceView {
  value: string;
  image: string;
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
  const choices = (kind: ChoiceKind, list: SleeveOptionSet['sizes']) =>
    list.map((c) => ({ value: c.value, image: choiceImageUrl(publicUrl, kind, c.value) }));
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
