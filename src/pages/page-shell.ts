/** The head and script tags the ordering page and the staff console share. */

/** Where src/pages/app/ is served (rest-compat/api.ts → app-assets.ts). */
export const APP_ASSETS = '/assets/app';

/** The icon every page names (served at /favicon.ico, an SVG: app-assets.ts). */
export const FAVICON_LINK = '<link rel="icon" href="/favicon.ico" type="image/svg+xml">';

export function pageHead(title: string, styles: string[]): string {
  const links = styles.map((s) => `<link rel="stylesheet" href="${APP_ASSETS}/${s}">`).join('');
  return `<head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${title}</title>${FAVICON_LINK}${links}</head>`;
}

/** graphql-ws's browser build (a classic script defining `graphqlWs`), then the page's module. */
export function pageScripts(module: string): string {
  return `<script src="/assets/graphql-ws.js"></script><script type="module" src="${APP_ASSETS}/${module}"></script>`;
}
