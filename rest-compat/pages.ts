/** The web pages the API links to: the hosted pay page at payUrl. */
import { renderPayPage } from '../src/pages/pay-page.ts';
import { text, type HttpRequest, type HttpResponse } from './http.ts';
import { notFound } from './routes.ts';

export const pages = {
  async pay(request: HttpRequest, orderNumber: string): Promise<HttpResponse> {
    // Document 1 §4: order numbers are digits. Anything else has no page.
    if (!/^[0-9]+$/u.test(orderNumber)) return notFound(request);
    const response = text(200, renderPayPage(orderNumber), 'text/html; charset=utf-8');
    // The page carries a payToken in its address: keep it out of caches and referrers.
    response.headers['cache-control'] = 'no-store';
    response.headers['referrer-policy'] = 'no-referrer';
    return response;
  },
};
