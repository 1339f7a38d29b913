/**
 * The picture of what will be stitched, served at `/preview.svg?size=&font=&thread=&text=` (issue 18): the address
 * of `Order.previewImage` and of the REST order's `previewImage`, and what the pay page shows. Drawn by
 * app/sleeve-drawing.js, the module the ordering page draws its live preview with, so the two are the same bytes.
 *
 * The address names only what is drawn, never an order or its payToken (docs/ordering.md#the-preview-image): it
 * can be logged, cached or shown by any chat widget. The text must be one the order rules allow, so this is not a
 * way to draw arbitrary words under the event's name; every value is escaped in the drawing anyway.
 */
import { DomainError } from '../kernel/errors.ts';
import { CHAR_LIMIT_RANGE } from '../orders/sleeve-options.ts';
import { STITCH_TEXT_PATTERN } from '../orders/order-input.ts';
import { sleevePreviewSvg } from './app/sleeve-drawing.js';

export interface PreviewQuery {
  size: string;
  font: string;
  thread: string;
  text: string;
}

const CHOICE_LENGTH = 40;

/** The query's four values, or a DomainError naming the first that is missing or refused. */
export function parsePreviewQuery(query: URLSearchParams): PreviewQuery {
  const values = {} as PreviewQuery;
  for (const field of ['size', 'font', 'thread', 'text'] as const) {
    const value = query.get(field);
    if (value === null || value === '') throw new DomainError('bad_request', `The query needs ${field}.`, { field });
    values[field] = value;
  }
  for (const field of ['size', 'font', 'thread'] as const) {
    if (values[field].length > CHOICE_LENGTH) {
      throw new DomainError('validation_failed', `${field} is longer than ${CHOICE_LENGTH} characters.`, { field });
    }
  }
  if (!STITCH_TEXT_PATTERN.test(values.text) || values.text.length > CHAR_LIMIT_RANGE.max) {
    throw new DomainError(
      'validation_failed',
      `text may use only the letters A to Z without accents, digits, spaces, ".", "-" and "&", start with a letter or digit, and have at most ${CHAR_LIMIT_RANGE.max} characters.`,
      { field: 'text' },
    );
  }
  return values;
}

/** The SVG for a checked query, drawn with the font's family and the thread's colour. */
export function renderPreview(query: PreviewQuery, looks: { family?: string; color?: string }): string {
  return sleevePreviewSvg({ ...query, family: looks.family, color: looks.color });
}
