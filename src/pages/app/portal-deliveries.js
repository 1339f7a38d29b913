/**
 * One endpoint's deliveries (docs/merchant-webhooks.md#endpoints): each message with its status and every attempt
 * (status code, duration, the start of the answer), newest first, read again every two seconds while shown. A
 * list of cards that reads the same on a phone and a laptop; the attempts open in a <details>. The list is drawn
 * anew only when the answer changed, and open attempt lists and the focused button survive the redraw.
 */
import { $, h } from './dom.js';
import { attemptText, statusText, when } from './portal-health.js';

export function createDeliveries({ api }) {
  let endpointId = null;
  let drawn = '';
  const open = new Set();

  function attemptsTable(delivery) {
    return h('div', { class: 'table-wrap' }, h('table', {},
      h('caption', { class: 'sr-only' }, `Attempts of ${delivery.webhookId}`),
      h('thead', {}, h('tr', {}, ['#', 'When', 'Answer', 'Response'].map((c) => h('th', { scope: 'col' }, c)))),
      h('tbody', {}, delivery.attempts.map((a, i) => h('tr', { class: 'attempt' },
        h('td', { dataset: { label: '#' } }, String(a.attempt ?? i + 1)),
        h('td', { dataset: { label: 'When' } }, a.startedAt ? when(a.startedAt) : '—'),
        h('td', { class: a.statusCode >= 200 && a.statusCode < 300 ? 'ok' : 'bad', dataset: { label: 'Answer' } }, attemptText(a)),
        h('td', { class: 'break', dataset: { label: 'Response' } }, h('span', { class: 'mono' }, a.responseExcerpt || a.error || '—')))))));
  }

  function item(delivery) {
    const last = delivery.attempts.at(-1);
    const details = h('details', { open: open.has(delivery.webhookId) },
      h('summary', {}, `Attempts (${delivery.attempts.length})`),
      delivery.attempts.length ? attemptsTable(delivery) : h('p', { class: 'hint' }, 'Not attempted yet.'));
    details.addEventListener('toggle', () => (details.open ? open.add(delivery.webhookId) : open.delete(delivery.webhookId)));
    return h('li', { class: 'delivery', dataset: { webhookId: delivery.webhookId, status: delivery.status } },
      h('div', { class: 'top' },
        h('span', { class: 'type' }, delivery.eventType),
        h('span', { class: `badge ${delivery.status.toLowerCase()}` }, statusText(delivery.status))),
      h('p', { class: 'meta' }, h('span', { class: 'mono' }, delivery.webhookId),
        last ? ` · last attempt ${attemptText(last)}` : '',
        delivery.nextAttemptAt && delivery.status === 'PENDING' ? ` · next ${when(delivery.nextAttemptAt)}` : ''),
      details,
      h('div', { class: 'actions' }, h('button', { type: 'button', class: 'secondary redeliver', onclick: () => redeliver(delivery) },
        'Redeliver', h('span', { class: 'sr-only' }, ` ${delivery.webhookId}`))));
  }

  async function redeliver(delivery) {
    const state = $('#deliveries-state');
    try {
      await api.redeliver(endpointId, delivery.id);
      state.textContent = `${delivery.webhookId} is queued to be sent again.`;
      await refresh();
    } catch (error) {
      state.textContent = error.message;
    }
  }

  function draw(deliveries) {
    const focused = document.activeElement?.closest?.('#delivery-list li')?.dataset.webhookId;
    $('#delivery-list').replaceChildren(...deliveries.map(item));
    $('#deliveries-state').textContent = deliveries.length ? '' : 'No deliveries yet. Send a test event to try your receiver.';
    if (focused) $(`#delivery-list li[data-webhook-id="${CSS.escape(focused)}"] .redeliver`)?.focus();
  }

  /** Reads the shown endpoint's deliveries; draws only what changed. */
  async function refresh() {
    if (!endpointId) return;
    const id = endpointId;
    const deliveries = await api.deliveries(id, $('#delivery-status').value);
    const text = JSON.stringify(deliveries);
    if (id !== endpointId || text === drawn) return;
    drawn = text;
    draw(deliveries);
  }

  $('#delivery-status').addEventListener('change', () => { drawn = ''; refresh().catch(() => {}); });

  $('#recover-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    const result = $('#recover-result');
    const local = $('#recover-since').value;
    if (!local) {
      result.textContent = 'Choose the date and time to recover from.';
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
      result.textContent = error.message;
    }
  });

  return {
    refresh,
    /** Shows `id`'s deliveries (null: none). */
    show(id) {
      if (id !== endpointId) {
        open.clear();
        drawn = '';
        $('#delivery-list').replaceChildren();
        $('#deliveries-state').textContent = 'Loading deliveries…';
        $('#recover-result').textContent = '';
      }
      endpointId = id;
      if (id) refresh().catch((error) => { $('#deliveries-state').textContent = error.message; });
    },
  };
}
