/** Preview images of the current choices, at the URLs that SleeveOptions lists, and of a sleeve as it will be stitched. */
import { CHOICE_KINDS, type ChoiceKind } from '../src/orders/sleeve-options.ts';
import { renderChoiceImage } from '../src/pages/option-images.ts';
import { parsePreviewQuery, renderPreview } from '../src/pages/preview-image.ts';
import type { Services } from '../src/services.ts';
import { json, type HttpRequest, type HttpResponse } from './http.ts';

const LISTS = { size: 'sizes', font: 'fonts', thread: 'threads' } as const;

export function createAssetHandlers({ services }: { services: Services }) {
  return {
    async optionImage(request: HttpRequest, kind: string, file: string): Promise<HttpResponse> {
      const value = file.endsWith('.svg') ? file.slice(0, -4) : null;
      const set = await services.options.current();
      const choice =
        value !== null && (CHOICE_KINDS as readonly string[]).includes(kind)
          ? set[LISTS[kind as ChoiceKind]].find((c) => c.value === value)
          : undefined;
      if (!choice) {
        return json(404, { ok: false, code: 'not_found', error: `No preview image at ${request.path}.`, retryable: false });
      }
      return {
        status: 200,
        headers: { 'content-type': 'image/svg+xml; charset=utf-8', 'cache-control': 'public, max-age=300' },
        body: renderChoiceImage(kind as ChoiceKind, choice),
      };
    },

    /** `/preview.svg?size=&font=&thread=&text=`: Order.previewImage (docs/ordering.md#the-preview-image). */
    async preview(request: HttpRequest): Promise<HttpResponse> {
      const query = parsePreviewQuery(request.query);
      const looks = await services.options.looks(query.font, query.thread);
      return {
        status: 200,
        // The same address draws the same picture until staff change a colour: a short cache is right.
        headers: { 'content-type': 'image/svg+xml; charset=utf-8', 'cache-control': 'public, max-age=300', 'x-content-type-options': 'nosniff', 'content-security-policy': "default-src 'none'" },
        body: renderPreview(query, looks),
      };
    },
  };
}
