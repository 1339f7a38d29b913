/**
 * The merchant portal (issue 19). The site id and API key are kept in sessionStorage only (this tab, until it
 * closes; never in the address or localStorage) and sent as HTTP basic auth to /v1/webhooks/endpoints. The page
 * reads the endpoints and the shown endpoint's deliveries every two seconds while the tab is visible, so a
 * delivery's attempts appear as they happen.
 */
import { $ } from './dom.js';
import { createPortalApi } from './portal-api.js';
import { createDeliveries } from './portal-deliveries.js';
import { createEndpoints } from './portal-endpoints.js';

const CREDENTIALS_KEY = 'sleeve.portalSite';
const POLL_MS = 2000;

function showConnection(ok) {
  $('#conn').textContent = ok ? 'Up to date' : 'Reconnecting…';
  $('#conn').classList.toggle('down', !ok);
}

async function open(siteId, apiKey) {
  const api = createPortalApi(siteId, apiKey);
  // Checks the credentials before anything is shown: a wrong pair answers 401.
  await api.list();
  sessionStorage.setItem(CREDENTIALS_KEY, JSON.stringify({ siteId, apiKey }));
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
      // A key replaced elsewhere signs this tab out; anything else is retried at the next tick.
      if (error.status === 401) return signOut();
      showConnection(false);
    }
    if (document.visibilityState === 'visible') timer = setTimeout(poll, POLL_MS);
  };
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible' && !timer) poll();
  });
  poll();
}

function signOut() {
  sessionStorage.removeItem(CREDENTIALS_KEY);
  location.replace('/portal');
}

function refusal(error) {
  if (error.status === 401) return 'That site id and API key do not match. Check both and try again.';
  return error.message;
}

$('#sign-in-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const siteId = $('#site-id').value.trim();
  const apiKey = $('#api-key').value.trim();
  $('#sign-in-error').textContent = '';
  if (!siteId) return $('#site-id').focus();
  if (!apiKey) return $('#api-key').focus();
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

$('#sign-out').addEventListener('click', signOut);

const saved = JSON.parse(sessionStorage.getItem(CREDENTIALS_KEY) ?? 'null');
if (saved?.siteId && saved?.apiKey) {
  open(saved.siteId, saved.apiKey).catch(() => {
    sessionStorage.removeItem(CREDENTIALS_KEY);
    $('#sign-in').hidden = false;
    $('#portal').hidden = true;
    $('#site-id').focus();
  });
} else {
  $('#site-id').focus();
}
