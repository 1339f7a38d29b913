/**
 * Preview images for each choice (document 1 §2 sizeChoices/fontChoices/threadChoices), drawn as SVG from the
 * choice itself, so a value staff add during the event has an image at once.
 */
import type { Choice, ChoiceKind } from '../orders/sleeve-options.ts';

function escapeXml(value: string): string {
  return value.replace(/[<>&"']/gu, (c) => `&#${c.charCodeAt(0)};`);
}

const FONT_STACKS: Record<string, { family: string; weight: number; style?: string; spacing?: number; upper?: boolean }> = {
  block: { family: "'Arial Black', 'Helvetica Neue', Arial, sans-serif", weight: 900 },
  script: { family: "'Brush Script MT', 'Segoe Script', cursive", weight: 400, style: 'italic' },
  serif: { family: "Georgia, 'Times New Roman', serif", weight: 400 },
  monogram: { family: "Didot, 'Bodoni 72', Georgia, serif", weight: 400, spacing: 6, upper: true },
};

function frame(inner: string, label: string): string {
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 240 160" width="240" height="160" role="img" aria-label="${escapeXml(label)}">` +
    `<rect width="240" height="160" rx="14" fill="#f4f1ea"/>${inner}` +
    `<text x="120" y="148" text-anchor="middle" font-family="system-ui, sans-serif" font-size="14" fill="#333">${escapeXml(label)}</text>` +
    `</svg>`
  );
}

function sizeImage(choice: Choice): string {
  const inches = Number(/\d+(?:\.\d+)?/u.exec(choice.value)?.[0] ?? 14);
  const scale = Math.min(1, Math.max(0.55, inches / 17));
  const w = Math.round(200 * scale);
  const h = Math.round(120 * scale);
  const x = Math.round((240 - w) / 2);
  const y = Math.round((130 - h) / 2);
  return frame(
    `<rect x="${x}" y="${y}" width="${w}" height="${h}" rx="10" fill="#3d4a5c"/>` +
      `<rect x="${x + 6}" y="${y + 6}" width="${w - 12}" height="${h - 12}" rx="7" fill="none" stroke="#c9a227" stroke-dasharray="5 4" stroke-width="2"/>`,
    `${choice.value} sleeve`,
  );
}

function fontImage(choice: Choice): string {
  const stack = FONT_STACKS[choice.value.toLowerCase()] ?? { family: `'${choice.value}', sans-serif`, weight: 400 };
  const sample = stack.upper ? 'ABC' : 'Abc';
  return frame(
    `<text x="120" y="92" text-anchor="middle" font-family="${escapeXml(stack.family)}" font-weight="${stack.weight}"` +
      `${stack.style ? ` font-style="${stack.style}"` : ''}${stack.spacing ? ` letter-spacing="${stack.spacing}"` : ''}` +
      ` font-size="64" fill="#1f2f5c">${sample}</text>`,
    `${choice.value} font`,
  );
}

function threadImage(choice: Choice): string {
  const color = choice.color ?? '#888888';
  const stitches = Array.from({ length: 9 }, (_, i) => {
    const x = 28 + i * 21;
    return `<path d="M${x} 60 l14 -14" stroke="${color}" stroke-width="6" stroke-linecap="round"/>` +
      `<path d="M${x} 96 l14 -14" stroke="${color}" stroke-width="6" stroke-linecap="round"/>`;
  }).join('');
  return frame(
    `<rect x="20" y="30" width="200" height="80" rx="10" fill="#3d4a5c"/>${stitches}` +
      `<circle cx="120" cy="71" r="14" fill="${color}" stroke="#fff" stroke-width="2"/>`,
    `${choice.value} thread`,
  );
}

export function renderChoiceImage(kind: ChoiceKind, choice: Choice): string {
  switch (kind) {
    case 'size':
      return sizeImage(choice);
    case 'font':
      return fontImage(choice);
    case 'thread':
      return threadImage(choice);
  }
}
