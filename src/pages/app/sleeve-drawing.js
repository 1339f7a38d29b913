/**
 * The sleeve drawn as SVG text, for the browser and the server alike (issue 18): the ordering page draws its live
 * preview and its option tiles with it (as data: images, no request per keystroke), and the server serves the very
 * same bytes at /preview.svg and /images/options/… (src/pages/preview-image.ts, option-images.ts). One drawing, so
 * the picture an attendee confirms, the pay page's and the one an agent shows are the same picture.
 *
 * Pure: strings in, a string out, no DOM. Every value that reaches the markup is escaped (the stitch text may hold
 * `&`, staff choices `'`), so nothing typed can become markup.
 */

/** Text and attribute values: the five characters XML gives meaning to. */
export function escapeXml(value) {
  return String(value).replace(/[<>&"']/gu, (c) => `&#${c.charCodeAt(0)};`);
}

/** The grey a thread without a known colour is drawn in; the family of a font without one. */
export const FALLBACK_COLOR = '#888888';
export const fallbackFamily = (font) => `"${String(font).replace(/["\\]/gu, '')}", system-ui, sans-serif`;

const FABRIC = '#4a5568';
const COLOR = /^#[0-9a-f]{6}$/iu;

/** The inches in a size's name ("15-inch" → 15), within reason; 14 when it names none. */
export function inchesOf(size) {
  const inches = Number(/\d+(?:\.\d+)?/u.exec(String(size ?? ''))?.[0] ?? 14);
  return Math.min(20, Math.max(10, inches));
}

/** A sleeve's outside measures in cm for a laptop of `inches` (a 13-inch sleeve is about 33 × 24 cm). */
export function sleeveCm(inches) {
  return { width: Math.round(inches * 2.2 + 4.5), height: Math.round(inches * 1.5 + 4.5) };
}

/** Relative luminance (WCAG) of #rrggbb. */
function luminance(color) {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const v = parseInt(color.slice(i, i + 2), 16) / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** A thin outline in the opposite lightness, so a dark thread stays visible on the dark fabric and a light one too. */
function outlineFor(color) {
  return luminance(color) < 0.18 ? '#ffffff' : '#10151f';
}

const safeColor = (color) => (COLOR.test(color ?? '') ? color.toLowerCase() : FALLBACK_COLOR);

/**
 * The preview of one sleeve: the fabric in the size's proportions (and scale: a 16-inch sleeve is drawn larger than
 * a 13-inch one), a dashed seam, the stitch text in the font's family and the thread's colour, and a caption.
 * `{ text, size, font, thread, color, family }`; an empty text shows where it will go.
 */
export function sleevePreviewSvg({ text = '', size = '', font = '', thread = '', color, family }) {
  const W = 480;
  const H = 340;
  const cm = sleeveCm(inchesOf(size));
  // True to scale between sizes: the largest sleeve drawn (20-inch, 48 × 35 cm) just fits the frame.
  const scale = 7.8;
  const w = Math.round(cm.width * scale);
  const h = Math.round(cm.height * scale);
  const x = Math.round((W - w) / 2);
  const y = Math.round((290 - h) / 2);
  const thread_ = safeColor(color);
  const face = family || fallbackFamily(font || 'sans-serif');
  const shown = text === '' ? 'Your text' : text;
  const chars = Math.max(1, [...shown].length);
  // A short text at its full size; a long one at the size that fills the width, held to exactly that width
  // (textLength) whatever the font's real glyph widths, so no letter ever leaves the sleeve.
  const room = w - 48;
  const fitted = room / (chars * 0.66);
  const fontSize = Math.max(12, Math.min(64, h * 0.38, fitted));
  const bound = fontSize >= fitted - 0.01 ? ` textLength="${room}" lengthAdjust="spacingAndGlyphs"` : '';
  const label = previewLabel({ text, size, font, thread });
  const caption = [size && `${size} (${cm.width} × ${cm.height} cm)`, font, thread && `${thread} thread`].filter(Boolean).join(' · ');
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="${escapeXml(label)}">` +
    `<title>${escapeXml(label)}</title>` +
    `<rect width="${W}" height="${H}" rx="18" fill="#f4f1ea"/>` +
    `<rect x="${x}" y="${y}" width="${w}" height="${h}" rx="16" fill="${FABRIC}"/>` +
    `<rect x="${x + 9}" y="${y + 9}" width="${w - 18}" height="${h - 18}" rx="10" fill="none" stroke="#c8ced8" stroke-opacity=".55" stroke-dasharray="7 5" stroke-width="2"/>` +
    `<text x="${W / 2}" y="${y + h / 2}" text-anchor="middle" dominant-baseline="central" font-family="${escapeXml(face)}" font-size="${fontSize.toFixed(1)}"` +
    ` font-weight="700" fill="${thread_}" stroke="${outlineFor(thread_)}" stroke-opacity=".45" stroke-width="1.2" paint-order="stroke"` +
    `${text === '' ? ' fill-opacity=".45"' : ''}${bound} xml:space="preserve">${escapeXml(shown)}</text>` +
    `<text x="${W / 2}" y="322" text-anchor="middle" font-family="system-ui, sans-serif" font-size="18" fill="#2b3240">${escapeXml(caption)}</text>` +
    `</svg>`
  );
}

/** What the preview shows, in words: its text alternative. */
export function previewLabel({ text = '', size = '', font = '', thread = '' }) {
  return text === ''
    ? `Preview of a ${size || 'laptop'} sleeve; type the text to stitch`
    : `Preview: “${text}” stitched in ${font || 'the chosen font'} with ${thread || 'the chosen'} thread on a ${size || 'laptop'} sleeve`;
}

/** A choice tile's picture, without a caption (the page and the image frame each give one their own way). */
export function choiceArt(kind, choice) {
  if (kind === 'size') {
    const cm = sleeveCm(inchesOf(choice.value));
    const k = 3.4;
    const w = Math.round(cm.width * k);
    const h = Math.round(cm.height * k);
    const x = Math.round((240 - w) / 2);
    const y = Math.round((130 - h) / 2);
    return `<rect x="${x}" y="${y}" width="${w}" height="${h}" rx="10" fill="${FABRIC}"/>` +
      `<rect x="${x + 6}" y="${y + 6}" width="${w - 12}" height="${h - 12}" rx="7" fill="none" stroke="#c9a227" stroke-dasharray="5 4" stroke-width="2"/>`;
  }
  if (kind === 'font') {
    const face = choice.family || fallbackFamily(choice.value);
    return `<text x="120" y="66" text-anchor="middle" dominant-baseline="central" font-family="${escapeXml(face)}" font-weight="700" font-size="64" fill="#1f2f5c">Abc</text>`;
  }
  const color = safeColor(choice.color);
  const stitches = Array.from({ length: 9 }, (_, i) => {
    const x = 28 + i * 21;
    return `<path d="M${x} 50 l14 -14" stroke="${color}" stroke-width="6" stroke-linecap="round"/>` +
      `<path d="M${x} 96 l14 -14" stroke="${color}" stroke-width="6" stroke-linecap="round"/>`;
  }).join('');
  return `<rect x="20" y="20" width="200" height="90" rx="10" fill="${FABRIC}"/>${stitches}` +
    `<circle cx="120" cy="65" r="16" fill="${color}" stroke="#fff" stroke-width="2"/>`;
}

/** A tile for the page: the art alone, in a 240 × 130 frame (the page writes the caption as text beside it). */
export function choiceTileSvg(kind, choice) {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 240 130" width="240" height="130">` +
    `<rect width="240" height="130" rx="14" fill="#f4f1ea"/>${choiceArt(kind, choice)}</svg>`;
}

/** An SVG as an image address the pages' policy allows (img-src data:). */
export function svgDataUrl(svg) {
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}
