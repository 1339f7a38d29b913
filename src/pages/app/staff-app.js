/**
 * The staff console (issue 8). The admin token is kept in sessionStorage only (this tab, until it closes) and sent
 * as `Authorization: Bearer …` over HTTP and as connectionParams.authorization over graphql-ws (docs/graphql.md#staff-authorization).
 * Routes are hash links: #/queue, #/options, #/notifications, and the deep links the notification dashboard uses:
 * #/orders/{n}, #/accounts/{id}?site={siteId}, #/item-listings/{id}?site={siteId} and #/claims/{id} (staff-links.js).
 */
import { $, showConnection } from './dom.js';
import { connect } from './graphql.js';
import { asOf, readWhileDown } from './read-while-down.js';
import { createDialogs } from './staff-dialogs.js';
import { describeLink } from './staff-links.js';
import { createNotificationsPanel } from './staff-notifications.js';
import { createOptionsEditor } from './staff-options.js';
import { createQueue } from './staff-queue.js';

const TOKEN_KEY = 'sleeve.staffToken';
const SECTIONS = ['queue', 'options', 'notifications'];
let queue = null;
let api = null;

async function route() {
  // A deep link may end in a query (#/accounts/{id}?site={siteId}); ids in the path are encoded, so the first ? starts it.
  const [path, query = ''] = location.hash.split(/\?(.*)/su);
  const [, kind = 'queue', id] = path.replace(/^#\/?/u, '/').split('/').map(decodeURIComponent);
  const note = $('#route-note');
  note.textContent = '';
  const section = SECTIONS.includes(kind) ? kind : 'queue';
  for (const s of SECTIONS) $(`#${s}`).hidden = s !== section;
  for (const a of document.querySelectorAll('#nav a')) {
    if (a.getAttribute('href') === `#/${section}`) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
  const hash = location.hash;
  const text = await describeLink({ api, queue }, kind, id, new URLSearchParams(query));
  // A later link may have been followed while this one was being looked up.
  if (location.hash === hash) note.textContent = text ?? '';
  // The section shown when the link named a section itself (a deep link puts focus on what it names).
  return SECTIONS.includes(kind) && id === undefined ? section : null;
}

async function open(token) {
  const authorization = `Bearer ${token}`;
  let lost = false;
  // Without the connection, the queue is read over HTTP every 10 s and the console says as of when (read-while-down.js).
  let readAt = null;
  const reading = readWhileDown({
    read: () => queue.reload(),
    stopped: () => !lost || !queue,
    everyMs: 10_000,
    onRead: (_, at) => {
      readAt = at;
      showConnection('down', `Not live: queue as of ${asOf(at)}, read every 10 s`);
    },
  });
  api = connect({
    authorization,
    onState: (state, reason) => {
      // A failed reconnect does not hide how current the queue read over HTTP is.
      if (state === 'live' || readAt === null) showConnection(state, reason);
      // orderEvents sent while the connection was down are lost: read the queue again.
      if (state === 'live' && lost) queue?.reload().catch((error) => { $('#queue-error').textContent = error.message; });
      lost = state !== 'live';
      if (lost) reading.soon();
      else {
        readAt = null;
        reading.stop();
      }
    },
    // A reload for new operations (graphql.js) signs the tab in again with the token typed, checked then.
    beforeReload: () => sessionStorage.setItem(TOKEN_KEY, token),
  });
  try {
    // Checks the token before anything is shown: a staff field answers UNAUTHORIZED to a wrong one.
    await api.request('StaffSignIn');
  } catch (error) {
    api.dispose();
    throw error;
  }
  sessionStorage.setItem(TOKEN_KEY, token);
  const dialogs = createDialogs({
    api,
    onChanged: (order) => queue.upsert(order, true),
    returnFocus: (n, action) => queue.returnFocus(n, action),
    ownChange: (n, request) => queue.ownChange(n, request),
  });
  queue = createQueue({ api, dialogs });
  $('#sign-in').hidden = true;
  for (const id of ['#console', '#nav', '#sign-out']) $(id).hidden = false;
  // Each panel reports its own trouble; one failing does not keep the others away.
  await Promise.all([
    queue.start().catch((error) => { $('#queue-error').textContent = error.message; }),
    createOptionsEditor({ api }).start().catch((error) => { $('#options-result').textContent = error.message; }),
    createNotificationsPanel({ api }).start(),
  ]);
  // A section chosen from the nav: focus goes to its heading, where a screen reader starts (it stayed on the body).
  window.addEventListener('hashchange', () => route().then((section) => { if (section) $(`#${section}-title`).focus(); }));
  route();
  if (!location.hash) $('#queue-title').focus();
}

$('#sign-in-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const token = $('#token').value.trim();
  $('#token-error').textContent = '';
  $('#token').removeAttribute('aria-invalid');
  // Said and marked, as the portal's sign-in does: an empty press did nothing a screen reader could tell.
  if (!token) {
    $('#token-error').textContent = 'Enter the admin token.';
    $('#token').setAttribute('aria-invalid', 'true');
    return $('#token').focus();
  }
  try {
    await open(token);
  } catch (error) {
    $('#token-error').textContent = error.code === 'UNAUTHORIZED' ? 'That token is not the admin token.' : error.message;
    $('#token').setAttribute('aria-invalid', 'true');
    $('#token').focus();
  }
});

$('#token').addEventListener('input', () => { if ($('#token').value.trim()) $('#token').removeAttribute('aria-invalid'); });

$('#find-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const n = $('#find').value.trim();
  const hash = `#/orders/${encodeURIComponent(n)}`;
  if (n && location.hash === hash) route();
  else if (n) location.hash = hash;
});

$('#sign-out').addEventListener('click', () => {
  sessionStorage.removeItem(TOKEN_KEY);
  location.reload();
});

/**
 * The tab's saved token, tried again until the server answers: only a refused token signs the tab out. A reload
 * during a moment's 503 (a database restart) used to drop the token and leave an empty sign-in form.
 */
async function reopen(token, waitMs = 1_000) {
  try {
    await open(token);
    $('#token-error').textContent = '';
  } catch (error) {
    if (error.code === 'UNAUTHORIZED') {
      sessionStorage.removeItem(TOKEN_KEY);
      $('#token-error').textContent = 'The saved token is no longer the admin token. Sign in again.';
      $('#token').focus();
      return;
    }
    $('#token-error').textContent = `Signing in again: ${error.message} Trying again in ${Math.round(waitMs / 1000)} s.`;
    // Signed in meanwhile with the form: nothing to try again.
    setTimeout(() => $('#sign-in').hidden || reopen(token, Math.min(waitMs * 2, 30_000)), waitMs);
  }
}

const saved = sessionStorage.getItem(TOKEN_KEY);
if (saved) reopen(saved);
else $('#token').focus();
