/**
 * The site's endpoints (docs/merchant-webhooks.md#endpoints): the list with each one's health, the chosen one's
 * facts and actions (edit, test, rotate, delete), the add/edit dialog (URL, description, event types as check
 * boxes, enabled) and the secret box, which shows a new secret once, after creation or rotation, with a copy
 * button. The chosen endpoint is in the address (#/endpoints/{id}); the secret never is.
 */
import { $, h, urlNodes } from './dom.js';
import { endpointHealth, eventTypesText, when } from './portal-health.js';

export function createEndpoints({ api, deliveries }) {
  let endpoints = [];
  let current = null;
  let drawn = '';
  let editing = null;
  let confirmAction = null;

  const chosenId = () => /^#\/endpoints\/(.+)$/u.exec(location.hash)?.[1];

  function listItem(endpoint) {
    const health = endpointHealth(endpoint);
    const id = decodeURIComponent(chosenId() ?? '');
    return h('li', { class: `endpoint-item${endpoint.id === id ? ' current' : ''}` },
      h('a', { href: `#/endpoints/${encodeURIComponent(endpoint.id)}`, 'aria-current': endpoint.id === id ? 'true' : null },
        h('span', { class: 'url' }, urlNodes(endpoint.url)),
        endpoint.description ? h('span', { class: 'description' }, endpoint.description) : null),
      h('span', { class: `badge ${health.level}` }, health.label));
  }

  function drawDetail() {
    $('#endpoint').hidden = !current;
    if (!current) return;
    $('#endpoint-title').replaceChildren(...(current.description ? [current.description] : urlNodes(current.url)));
    const health = endpointHealth(current);
    $('#endpoint-facts').replaceChildren(
      ...[['URL', urlNodes(current.url)], ['Event types', eventTypesText(current.eventTypes)], ['Id', current.id],
        ['Created', current.createdAt ? when(current.createdAt) : '—'],
        current.previousSecretExpiresAt ? ['Previous secret', `still signs too until ${when(current.previousSecretExpiresAt)}`] : null]
        .filter(Boolean).flatMap(([k, v]) => [h('dt', {}, k), h('dd', {}, v)]));
    $('#endpoint-health').textContent = health.detail;
    $('#endpoint-health').className = `health ${health.level}`;
    // The server refuses a test event to a disabled endpoint: say so before it is tried.
    $('#send-test').disabled = !current.enabled;
  }

  function draw() {
    const id = decodeURIComponent(chosenId() ?? '');
    current = endpoints.find((e) => e.id === id) ?? null;
    $('#endpoint-list').replaceChildren(...endpoints.map(listItem));
    // An id in the address that names none of the site's endpoints (mistyped, deleted, another site's): said, not a blank pane.
    const unknown = id && !current ? `No endpoint of this site has the id ${id}. Choose one from the list.` : '';
    $('#endpoints-state').textContent = [endpoints.length ? '' : 'No endpoints yet. Add one to receive your site’s notifications.', unknown].filter(Boolean).join(' ');
    drawDetail();
    deliveries.show(current);
  }

  /** Reads the endpoints again; draws only when something changed (the list keeps its focus otherwise). */
  async function refresh() {
    endpoints = await api.list();
    const text = JSON.stringify([endpoints, chosenId()]);
    if (text !== drawn) {
      drawn = text;
      draw();
    }
  }

  function showSecret(secret) {
    $('#secret').value = secret;
    $('#secret-note').textContent = '';
    $('#secret-box').hidden = false;
    $('#secret').focus();
    $('#secret').select();
  }

  function hideSecret() {
    $('#secret').value = '';
    $('#secret-box').hidden = true;
  }

  async function act(button, work) {
    button.disabled = true;
    $('#endpoint-alert').textContent = '';
    try {
      await work();
    } catch (error) {
      $('#endpoint-alert').textContent = error.message;
    } finally {
      button.disabled = false;
      drawDetail();
    }
  }

  /**
   * A refusal of what the dialog holds: `message` under it, and the field at fault (the description when the refusal
   * names only that, else the URL) marked, described by it and focused. Save, disabled while asking, had lost focus to
   * the page's body, outside the modal dialog. `invalid` false: a failure that is no fault of the fields (no answer).
   */
  function refuseEndpoint(message, { errors = [], invalid = true } = {}) {
    $('#endpoint-error').textContent = message;
    const description = errors.length > 0 && errors.every((e) => e.field === 'description');
    const field = $(description ? '#endpoint-description' : '#endpoint-url');
    if (invalid) {
      field.setAttribute('aria-invalid', 'true');
      field.setAttribute('aria-describedby', description ? 'endpoint-error' : 'endpoint-url-help endpoint-error');
    }
    field.focus();
  }

  /** The dialog's fields no longer at fault: a fresh dialog, or the field changed. */
  function unmark(field) {
    field.removeAttribute('aria-invalid');
    if (field.id === 'endpoint-url') field.setAttribute('aria-describedby', 'endpoint-url-help');
    else field.removeAttribute('aria-describedby');
  }
  for (const id of ['#endpoint-url', '#endpoint-description']) $(id).addEventListener('input', () => unmark($(id)));

  function openEditor(endpoint) {
    editing = endpoint;
    $('#endpoint-dialog-title').textContent = endpoint ? 'Edit endpoint' : 'Add endpoint';
    $('#endpoint-url').value = endpoint?.url ?? '';
    $('#endpoint-description').value = endpoint?.description ?? '';
    for (const box of document.querySelectorAll('input[name=eventTypes]')) box.checked = !!endpoint?.eventTypes?.includes(box.value);
    $('#endpoint-enabled').checked = endpoint ? endpoint.enabled : true;
    $('#endpoint-error').textContent = '';
    for (const id of ['#endpoint-url', '#endpoint-description']) unmark($(id));
    $('#endpoint-dialog').showModal();
    $('#endpoint-url').focus();
  }

  $('#endpoint-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    const url = $('#endpoint-url').value.trim();
    if (!/^https?:\/\/\S+$/iu.test(url)) return refuseEndpoint('Give the full address of your receiver, starting with https:// (or http://).');
    const fields = {
      url,
      description: $('#endpoint-description').value.trim(),
      eventTypes: [...document.querySelectorAll('input[name=eventTypes]:checked')].map((box) => box.value),
      enabled: $('#endpoint-enabled').checked,
    };
    const button = $('#endpoint-save');
    button.disabled = true;
    try {
      const saved = editing ? await api.update(editing.id, fields) : await api.create(fields);
      $('#endpoint-dialog').close();
      $('#endpoint-result').textContent = editing ? 'Saved.' : 'Endpoint added.';
      // pushState fires no hashchange, whose handler would hide the secret about to be shown.
      history.pushState(null, '', `#/endpoints/${encodeURIComponent(saved.id)}`);
      await refresh();
      if (saved.secret) showSecret(saved.secret);
      else $('#endpoint-title').focus();
    } catch (error) {
      refuseEndpoint(error.message, { errors: error.errors, invalid: error.status >= 400 });
    } finally {
      button.disabled = false;
    }
  });

  function confirm({ title, text, yes, danger, run }) {
    $('#confirm-title').textContent = title;
    $('#confirm-text').textContent = text;
    $('#confirm-yes').textContent = yes;
    $('#confirm-yes').className = danger ? 'danger' : '';
    $('#confirm-error').textContent = '';
    confirmAction = run;
    $('#confirm-dialog').showModal();
    $('#confirm-yes').focus();
  }

  $('#confirm-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    $('#confirm-yes').disabled = true;
    try {
      await confirmAction();
      $('#confirm-dialog').close();
    } catch (error) {
      $('#confirm-error').textContent = error.message;
    } finally {
      $('#confirm-yes').disabled = false;
    }
  });

  for (const dialog of document.querySelectorAll('dialog')) {
    dialog.querySelector('[data-close]').addEventListener('click', () => dialog.close());
  }

  $('#add-endpoint').addEventListener('click', () => openEditor(null));
  $('#edit-endpoint').addEventListener('click', () => openEditor(current));
  $('#secret-done').addEventListener('click', () => { hideSecret(); $('#endpoint-title').focus(); });
  $('#copy-secret').addEventListener('click', async () => {
    $('#secret').select();
    try {
      await navigator.clipboard.writeText($('#secret').value);
      $('#secret-note').textContent = 'Copied to the clipboard.';
    } catch {
      $('#secret-note').textContent = 'Copying was not allowed here: the secret is selected, press Ctrl+C (⌘C on a Mac).';
    }
  });

  $('#send-test').addEventListener('click', (event) => act(event.currentTarget, async () => {
    await api.test(current.id);
    $('#endpoint-result').textContent = 'Test event queued: watch it arrive under Deliveries.';
    await deliveries.refresh();
  }));

  $('#rotate-secret').addEventListener('click', () => confirm({
    title: 'Rotate the signing secret?',
    // Not "both the old and the new": after a second rotation within the day, three secrets sign.
    text: 'A new secret is made and shown once. The secrets that sign now keep signing for 24 hours beside the new one, so you can deploy it without missing a notification.',
    yes: 'Rotate secret',
    run: async () => {
      const { secret } = await api.rotate(current.id);
      $('#endpoint-result').textContent = 'Secret rotated.';
      showSecret(secret);
    },
  }));

  $('#delete-endpoint').addEventListener('click', () => confirm({
    title: 'Delete this endpoint?',
    text: `Nothing more is sent to ${current.url}. This cannot be undone.`,
    yes: 'Delete endpoint',
    danger: true,
    run: async () => {
      await api.remove(current.id);
      hideSecret();
      history.pushState(null, '', '#/endpoints');
      await refresh();
      $('#endpoints-title').focus();
    },
  }));

  /**
   * The chosen endpoint's heading, brought into view (below the list on a phone) and focused. Only once it is drawn:
   * the first endpoint opened was still hidden when focused, so focus fell to the body and nothing scrolled.
   */
  function goToEndpoint() {
    if (!current) return;
    const { top, bottom } = $('#endpoint-title').getBoundingClientRect();
    // Beside the list on a laptop it is often in view already: the page then stays where it is.
    if (top < 0 || bottom > innerHeight) $('#endpoint').scrollIntoView({ block: 'start' });
    $('#endpoint-title').focus({ preventScroll: true });
  }

  window.addEventListener('hashchange', async () => {
    hideSecret();
    $('#endpoint-result').textContent = '';
    $('#endpoint-alert').textContent = '';
    $('#endpoints-error').textContent = '';
    drawn = '';
    try {
      await refresh();
      if (chosenId()) goToEndpoint();
    } catch (error) {
      $('#endpoints-error').textContent = error.message;
    }
  });

  return { refresh };
}
