/**
 * Preview images for each choice (document 1 §2 sizeChoices/fontChoices/threadChoices), drawn as SVG from the
 * choice itself, so a value staff add during the event has an image at once. The picture is the ordering page's
 * own tile (app/sleeve-drawing.js); here it gets a caption large enough to read where a chat widget shows it.
 */
import type { Choice, ChoiceKind } from '../orders/sleeve-options.ts';
import { choiceArt, escapeXml } from './app/sleeve-drawing.js';

const CAPTION = { size: 'sleeve', font: 'font', thread: 'thread' } as const;

export function renderChoiceImage(kind: ChoiceKind, choice: Choice): string {
  const label = `${choice.value} ${CAPTION[kind]}`;
  // 24 px in a 240 px wide picture: a tenth of its width, readable at the sizes chat widgets show images.
  const fontSize = label.length > 16 ? Math.max(14, Math.floor(380 / label.length)) : 24;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 240 170" width="240" height="170" role="img" aria-label="${escapeXml(label)}">` +
    `<rect width="240" height="170" rx="14" fill="#f4f1ea"/>${choiceArt(kind, choice)}` +
    `<text x="120" y="156" text-anchor="middle" font-family="system-ui, sans-serif" font-weight="600" font-size="${fontSize}" fill="#1b2130">${escapeXml(label)}</text>` +
    `</svg>`
  );
}
