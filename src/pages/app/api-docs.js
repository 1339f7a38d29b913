// /docs (src/pages/api-docs-page.ts): runs before Redoc's bundle, then starts Redoc on #redoc once the bundle is loaded.
//
// The policy allows a <style> element only with this answer's nonce. Redoc writes its styles into <style> elements it
// creates (styled-components, style-loader), and its own `nonce` option does not reach them in the standalone bundle,
// so every <style> element created on this page gets the nonce as it is created, before it is inserted. The nonce is
// read from #redoc's `nonce` property: browsers hide the attribute itself from scripts.
/* global Redoc */
const element = document.getElementById('redoc');
const nonce = element.nonce;
const createElement = document.createElement;
document.createElement = function createWithNonce(name, options) {
  const created = createElement.call(this, name, options);
  if (String(name).toLowerCase() === 'style') created.nonce = nonce;
  return created;
};
document.addEventListener('DOMContentLoaded', () => {
  Redoc.init(element.dataset.spec, { nonce, expandResponses: '200,201' }, element);
});
