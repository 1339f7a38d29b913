/**
 * One endpoint's deliveries (docs/merchant-webhooks.md#endpoints): each message with its status and every attempt
 * (status code, duration, the start of the answer), newest first, read again every two seconds while shown. A
 * list of cards that reads the same on a phone and a laptop; the attempts open in a <details>. The list is drawn
 * anew only when the answer changed, and open attempt lists and the focused button survive the redraw. The API answers
 * a page at a time; "Load older deliveries" reads the next one by its nextCursor, and every poll reads again as many
 * pages as are shown, so the older ones stay live and are not dropped at the next change.
 */
import { $, h } from './dom.js';
import { attemptText, nextText, responseText, statusText, when } from './portal-health.js';

export function createDeliveries({ api }) {
  let endpointId = null;
  // The shown endpoint as last read: whether it is enabled and until when it is throttled change what each row says.
  let endpoint = null;
  let drawn = '';
  let shown = [];
  // What the list itself last said in #deliveries-state (loading, empty, a failed read): a drawn list replaces that,
  // but not an action's words ("2 older deliveries shown."), which a poll's redraw would otherwise wipe at once.
  let listNote = '';
  // How many pages are shown (the poll reads them all again), and the nextCursor of the last: null when it is the last.
  let pages = 1;
  let cursor = null;
  const open = new Set();
  // A redelivery's note ("… is queued to be sent again.") holds until its message shows a new attempt, then says how
  // it went; "queued" stayed on screen for good, through the answer, a recovery and a disable (a merchant review).
  // {webhookId, attempts}, or null.
  let awaited = null;

  function attemptsTable(delivery) {
    return h('div', { class: 'table-wrap' }, h('table', {},
      h('caption', { class: 'sr-only' }, `Attempts of ${delivery.webhookId}`),
      h('thead', {}, h('tr', {}, ['#', 'When', 'Answer', 'Response'].map((c) => h('th', { scope: 'col' }, c)))),
      h('tbody', {}, delivery.attempts.map((a, i) => h('tr', { class: 'attempt' },
        h('td', { dataset: { label: '#' } }, String(a.attempt ?? i + 1)),
        h('td', { dataset: { label: 'When' } }, a.startedAt ? when(a.startedAt) : '—'),
        h('td', { class: a.statusCode >= 200 && a.statusCode < 300 ? 'ok' : 'bad', dataset: { label: 'Answer' } }, attemptText(a)),
        h('td', { class: 'break', dataset: { label: 'Response' } }, h('span', { class: 'mono' }, responseText(a))))))));
  }

  /** What the attempt list says while it is empty: being sent, or what it waits for. */
  function noAttempts(delivery) {
    if (delivery.status !== 'PENDING') return 'Not attempted.';
    const next = nextText(delivery, endpoint);
    return next === 'being sent' ? 'Being sent: no answer yet.' : `Not attempted yet: ${next}.`;
  }

  function item(delivery) {
    const last = delivery.attempts.at(-1);
    const next = nextText(delivery, endpoint);
    const details = h('details', { open: open.has(delivery.webhookId) },
      h('summary', {}, `Attempts (${delivery.attempts.length})`),
      delivery.attempts.length ? attemptsTable(delivery) : h('p', { class: 'hint' }, noAttempts(delivery)));
    details.addEventListener('toggle', () => (details.open ? open.add(delivery.webhookId) : open.delete(delivery.webhookId)));
    // The server refuses to send to a disabled endpoint: the button says so before it is tried, as Send test event does.
    const sendable = endpoint?.enabled !== false;
    return h('li', { class: 'delivery', dataset: { webhookId: delivery.webhookId, status: delivery.status } },
      h('div', { class: 'top' },
        h('span', { class: 'type' }, delivery.eventType),
        h('span', { class: `badge ${delivery.status.toLowerCase()}` }, statusText(delivery.status))),
      metaLine(delivery.webhookId, [`created ${when(delivery.createdAt)}`, last && `last attempt ${attemptText(last)}`, next]),
      details,
      h('div', { class: 'actions' }, h('button', {
        type: 'button', class: 'secondary redeliver', disabled: !sendable, 'aria-describedby': sendable ? null : 'send-again-note', onclick: () => redeliver(delivery),
      }, 'Redeliver', h('span', { class: 'sr-only' }, ` ${delivery.webhookId}`))));
  }

  /**
   * A delivery's line: its id, then its parts (the empty ones left out), "·" between them, drawn only where they share
   * a line: on a phone each part stands on a line of its own (portal.css). Wider, the line may wrap (an id, a time and
   * an answer). Each part moves to the next line whole (an inline-block), and each "·" is the end of what stands
   * before it, so a wrap never begins a line with one: a dot between two parts had let the line break before it.
   */
  function metaLine(id, parts) {
    const shown = parts.filter(Boolean);
    const sep = () => h('span', { class: 'sep', 'aria-hidden': 'true' }, ' ·');
    return h('p', { class: 'meta' }, h('span', { class: 'mono' }, id), shown.length > 0 && sep(),
      shown.flatMap((text, i) => [' ', h('span', { class: 'part' }, text, i < shown.length - 1 && sep())]));
  }

  /** An API refusal, announced (role=alert) apart from the list's own status line; '' clears it. */
  const alertDeliveries = (text) => { $('#deliveries-error').textContent = text; };

  async function redeliver(delivery) {
    alertDeliveries('');
    try {
      await api.redeliver(endpointId, delivery.id);
      $('#deliveries-state').textContent = `${delivery.webhookId} is queued to be sent again.`;
      awaited = { webhookId: delivery.webhookId, attempts: delivery.attempts.length };
      await refresh();
    } catch (error) {
      alertDeliveries(error.message);
    }
  }

  /** Redeliver and Recover are offered only while the endpoint is enabled, with the reason shown while not. */
  function showSendable() {
    const sendable = endpoint?.enabled !== false;
    $('#send-again-note').hidden = sendable;
    $('#recover-note').hidden = sendable;
    $('#recover-submit').disabled = !sendable;
    // Only while shown: a hidden note named by aria-describedby would still be read out.
    if (sendable) $('#recover-submit').removeAttribute('aria-describedby');
    else $('#recover-submit').setAttribute('aria-describedby', 'recover-note');
  }

  function noteList(text) {
    listNote = text;
    $('#deliveries-state').textContent = text;
  }

  /** An empty list: none at all, or none with the status the filter shows (it said "No deliveries yet" for both). */
  function emptyText() {
    const filter = $('#delivery-status');
    if (!filter.value) return 'No deliveries yet. Send a test event to try your receiver.';
    return `No ${filter.selectedOptions[0].textContent.toLowerCase()} deliveries. Choose All to see every delivery.`;
  }

  function draw(deliveries) {
    const focused = document.activeElement?.closest?.('#delivery-list li')?.dataset.webhookId;
    showSendable();
    $('#delivery-list').replaceChildren(...deliveries.map(item));
    if (!deliveries.length) noteList(emptyText());
    else if ($('#deliveries-state').textContent === listNote) noteList('');
    const redelivered = awaited && deliveries.find((d) => d.webhookId === awaited.webhookId);
    if (redelivered && redelivered.attempts.length > awaited.attempts) {
      awaited = null;
      // Said as the list's own note: the next change of the list clears it.
      noteList(`${redelivered.webhookId} was sent again: ${attemptText(redelivered.attempts.at(-1))}.`);
    }
    if (focused) $(`#delivery-list li[data-webhook-id="${CSS.escape(focused)}"] .redeliver`)?.focus();
  }

  /** What a read is for; its answer is dropped when the endpoint, the filter or the pages shown changed meanwhile. */
  const asking = () => ({ id: endpointId, status: $('#delivery-status').value, pages });
  const stillAsked = (asked) => asked.id === endpointId && asked.status === $('#delivery-status').value && asked.pages === pages;

  function showPages(deliveries, next) {
    cursor = next;
    $('#older-row').hidden = !next;
    const text = JSON.stringify(deliveries);
    if (text === drawn) return;
    drawn = text;
    shown = deliveries;
    draw(deliveries);
  }

  /** The first `asked.pages` pages, each after the last one's cursor: new deliveries push older ones down, not out. */
  async function readPages(asked) {
    let page = await api.deliveryPage(asked.id, { status: asked.status });
    const deliveries = [...page.data];
    for (let n = 1; n < asked.pages && page.nextCursor; n += 1) {
      page = await api.deliveryPage(asked.id, { status: asked.status, after: page.nextCursor });
      deliveries.push(...page.data);
    }
    return { deliveries, next: page.nextCursor };
  }

  /** Reads the shown endpoint's deliveries; draws only what changed. */
  async function refresh() {
    if (!endpointId) return;
    const asked = asking();
    const { deliveries, next } = await readPages(asked);
    if (stillAsked(asked)) showPages(deliveries, next);
  }

  /** The page after the last one shown, appended below it. */
  async function loadOlder(button) {
    const asked = asking();
    button.disabled = true;
    alertDeliveries('');
    try {
      const page = await api.deliveryPage(asked.id, { status: asked.status, after: cursor });
      if (!stillAsked(asked)) return;
      pages += 1;
      showPages([...shown, ...page.data], page.nextCursor);
      $('#deliveries-state').textContent = `${page.data.length} older ${page.data.length === 1 ? 'delivery' : 'deliveries'} shown.`;
      // The button is gone after the last page: focus goes on to the first delivery it brought rather than the page.
      if (!page.nextCursor && page.data[0]) $(`#delivery-list li[data-webhook-id="${CSS.escape(page.data[0].webhookId)}"] .redeliver`)?.focus();
    } catch (error) {
      alertDeliveries(error.message);
    } finally {
      button.disabled = false;
    }
  }

  /** Back to the first page, as for another endpoint or another filter. */
  function restart() {
    drawn = '';
    awaited = null;
    noteList('');
    alertDeliveries('');
    pages = 1;
    cursor = null;
    $('#older-row').hidden = true;
  }

  $('#older-deliveries').addEventListener('click', (event) => loadOlder(event.currentTarget));
  $('#delivery-status').addEventListener('change', () => { restart(); refresh().catch((error) => alertDeliveries(error.message)); });

  $('#recover-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    const result = $('#recover-result');
    const local = $('#recover-since').value;
    result.textContent = '';
    $('#recover-error').textContent = '';
    // Enter in the field submits even while the button is disabled for a disabled endpoint.
    if ($('#recover-submit').disabled) return;
    if (!local) {
      $('#recover-error').textContent = 'Choose the date and time to recover from.';
      return $('#recover-since').focus();
    }
    try {
      const { recovered } = await api.recover(endpointId, new Date(local).toISOString());
      const since = when(new Date(local).toISOString());
      result.textContent = recovered === 0
        ? `No delivery has failed since ${since}.`
        : `${recovered} failed ${recovered === 1 ? 'delivery' : 'deliveries'} since ${since} ${recovered === 1 ? 'is' : 'are'} being sent again.`;
      await refresh();
    } catch (error) {
      $('#recover-error').textContent = error.message;
    }
  });

  return {
    refresh,
    /** Shows the deliveries of `shownEndpoint` (null: none), read again; the rows are drawn again when it changed. */
    show(shownEndpoint) {
      const id = shownEndpoint?.id ?? null;
      if (id !== endpointId) {
        open.clear();
        restart();
        $('#delivery-list').replaceChildren();
        noteList('Loading deliveries…');
        $('#recover-result').textContent = '';
        $('#recover-error').textContent = '';
      } else if (id && (shownEndpoint.enabled !== endpoint?.enabled || shownEndpoint.throttledUntil !== endpoint?.throttledUntil)) {
        drawn = '';
      }
      endpointId = id;
      endpoint = shownEndpoint;
      showSendable();
      if (id) refresh().catch((error) => alertDeliveries(error.message));
    },
  };
}
