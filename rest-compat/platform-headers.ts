/**
 * The guard in front of every risk and merchant operation, in the order the decisions fix: basic auth (401), then
 * x-vendor-siteid (401), api-version (400) and, for bodies, content-type (400) (src/sites/platform-headers.ts),
 * then the body.
 */
import { checkPlatformHeaders } from '../src/sites/platform-headers.ts';
import type { Site, SiteService } from '../src/sites/site-service.ts';
import { readJson, type HttpRequest } from './http.ts';
import { requireSite } from './platform-http.ts';

/** The authenticated site; a POST's content type is checked too, unless the operation is `bodyless` (it reads none). */
export async function platformSite(request: HttpRequest, sites: SiteService, options: { bodyless?: boolean } = {}): Promise<Site> {
  const site = await requireSite(request, sites);
  const { headers } = request;
  checkPlatformHeaders(
    { siteIdHeader: headers['x-vendor-siteid'], apiVersion: headers['api-version'], contentType: headers['content-type'] },
    site.siteId,
    request.method === 'POST' && !options.bodyless,
  );
  return site;
}

/** The site and the parsed JSON body of a POST. */
export async function platformCall(request: HttpRequest, sites: SiteService): Promise<{ site: Site; body: unknown }> {
  const site = await platformSite(request, sites);
  return { site, body: await readJson(request) };
}
