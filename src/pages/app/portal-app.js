/**
 * The merchant portal (issue 19). The site id and API key are kept in sessionStorage only (this tab, until it
 * closes; never in the address or localStorage) and sent as HTTP basic auth to /v1/webhooks/endpoints. The page
 * reads the endpoints and the shown endpoint's deliveries every two seconds while the tab is visible, so a
 * delivery's attempts appear as they happen.
 */
import { $, writeText } from './dom.js';
import { createPortalApi } from './portal-api.js';
import { createDeliveries } from './portal-deliveries.js';
import { createEndpoints } from './portal-endpoints.js';

const CREDENTIALS_KEY = 'sleeve.portalSite';
// Why the last session ended, shown on the sign-in form the reload brings (no secret in it; read once).
const ENDED_KEY = 'sleeve.portalEnded';
const KEY_REFUSED = 'Your API key was refused: it may have been replaced. Sign in with the current key.';
const POLL_MS = 2000;

/** The header's status line, written only when it changes: "Up to date" written at every poll was said every 2 s. */
function showConnection(ok) {
  writeText($('#conn'), ok ? 'Up to date' : 'Reconnecting…');
  $('#conn').classList.toggle('down', !ok);
}

async function open(siteId, apiKey) {
  const api = createPortalApi(siteId, apiKey);
  // Checks the credentials before anything is shown: a wrong pair answers 401.
  await api.list();
  sessionStorage.setItem(CREDENTIALS_KEY, JSON.stringify({ siteId, apiKey }));
  // A key replaced elsewhere signs this tab out, with the reason, at whichever call meets it first.
  api.whenRefused(() => signOut(KEY_REFUSED));
  const deliveries = createDeliveries({ api });
  const endpoints = createEndpoints({ api, deliveries });
  $('#sign-in').hidden = true;
  $('#portal').hidden = false;
  $('#sign-out').hidden = false;
  $('#site-name').textContent = `Site ${siteId}`;
  await endpoints.refresh();
  showConnection(true);
  if (!location.hash) $('#endpoints-title').focus();

  let timer = 0;
  const poll = async () => {
    timer = 0;
    try {
      await endpoints.refresh();
      await deliveries.refresh();
      showConnection(true);
    } catch (error) {
      // A 401 has signed this tab out already (whenRefused); anything else is retried at the next tick.
      if (error.status === 401) return;
      showConnection(false);
    }
    if (document.visibilityState === 'visible') timer = setTimeout(poll, POLL_MS);
  };
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible' && !timer) poll();
  });
  poll();
}

/** Back to an empty sign-in form; `reason`, when given, is said on it. */
function signOut(reason) {
  sessionStorage.removeItem(CREDENTIALS_KEY);
  if (reason) sessionStorage.setItem(ENDED_KEY, reason);
  location.replace('/portal');
}

function refusal(error) {
  if (error.status === 401) return 'That site id and API key do not match. Check both and try again.';
  return error.message;
}

/** Marks the empty fields invalid and says what is missing; false when neither is empty. */
function missingFields(siteId, apiKey) {
  // "true" spelt out: an empty aria-invalid means false.
  for (const [field, value] of [['#site-id', siteId], ['#api-key', apiKey]]) {
    if (value) $(field).removeAttribute('aria-invalid');
    else $(field).setAttribute('aria-invalid', 'true');
  }
  if (siteId && apiKey) return false;
  const missing = [!siteId && 'your site id', !apiKey && 'your API key'].filter(Boolean).join(' and ');
  $('#sign-in-error').textContent = `Enter ${missing}.`;
  $(!siteId ? '#site-id' : '#api-key').focus();
  return true;
}

for (const field of ['#site-id', '#api-key']) {
  $(field).addEventListener('input', (event) => { if (event.currentTarget.value.trim()) event.currentTarget.removeAttribute('aria-invalid'); });
}

$('#sign-in-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const siteId = $('#site-id').value.trim();
  const apiKey = $('#api-key').value.trim();
  $('#sign-in-error').textContent = '';
  if (missingFields(siteId, apiKey)) return;
  const button = event.submitter ?? $('#sign-in-form button');
  button.disabled = true;
  try {
    await open(siteId, apiKey);
  } catch (error) {
    $('#sign-in-error').textContent = refusal(error);
    $('#api-key').focus();
  } finally {
    button.disabled = false;
  }
});

$('#sign-out').addEventListener('click', () => signOut());

const saved = JSON.parse(sessionStorage.getItem(CREDENTIALS_KEY) ?? 'null');
const ended = sessionStorage.getItem(ENDED_KEY);
sessionStorage.removeItem(ENDED_KEY);
if (saved?.siteId && saved?.apiKey) {
  open(saved.siteId, saved.apiKey).catch((error) => {
    sessionStorage.removeItem(CREDENTIALS_KEY);
    $('#sign-in').hidden = false;
    $('#portal').hidden = true;
    $('#sign-out').hidden = true;
    $('#site-name').textContent = '';
    $('#sign-in-error').textContent = error.status === 401 ? KEY_REFUSED : error.message;
    $('#site-id').value = saved.siteId;
    $('#api-key').focus();
  });
} else {
  if (ended) $('#sign-in-error').textContent = ended;
  $('#site-id').focus();
}
