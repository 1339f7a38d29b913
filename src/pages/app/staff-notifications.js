/**
 * Notification deliveries (document 2, docs/notifications.md#staff-view-and-redelivery): the staff `notifications` connection and
 * `redeliverNotification(id)`. A table on a desktop; on a phone each delivery is a card of labelled lines (staff.css),
 * so nothing scrolls sideways and the redeliver button is always in view.
 */
import { $, h, statusLabel } from './dom.js';

const PAGE = 50;

/** "Nov 22, 5:19:40 PM": short enough that the table fits a laptop screen. */
const when = (iso) => new Date(iso).toLocaleString(undefined, { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', second: '2-digit' });

/** A status in words, coloured once settled: delivered green, failed red (dropped and pending stay plain). */
const STATUS_CLASS = { DELIVERED: 'ok', FAILED: 'bad' };

/** One column: its header, and the cell of a delivery (text or nodes). Enum values show as words, as on the queue. */
const COLUMNS = [
  { label: 'Notification', cell: (n) => [h('span', { class: 'kind' }, statusLabel(n.type)), h('span', { class: 'path' }, n.path)] },
  { label: 'Status', cell: (n) => h('span', { class: STATUS_CLASS[n.status] ?? null }, statusLabel(n.status)) },
  { label: 'About', cell: (n) => n.subject ?? '—', wrap: true },
  { label: 'Attempts', cell: (n) => String(n.attemptCount) },
  { label: 'Created', cell: (n) => when(n.createdAt) },
  // A redelivered notification keeps its first deliveredAt while it waits again: the status says which time matters.
  { label: 'Delivered / next attempt', cell: (n) => (n.status === 'DELIVERED' && n.deliveredAt ? when(n.deliveredAt) : n.nextAttemptAt ? `next ${when(n.nextAttemptAt)}` : '—') },
  { label: 'Last error', cell: (n) => n.lastError ?? '—', wrap: true },
  { label: 'Id (webhook-id)', cell: (n) => n.id, wrap: true, mono: true },
];

export function createNotificationsPanel({ api }) {
  let after = null;

  function unavailable(error) {
    $('#notifications-state').textContent = `Notification deliveries are not available: ${error.message}`;
    $('#notifications-state').className = 'notice';
    $('#notifications-more').hidden = true;
  }

  function row(node) {
    // One element per cell, so that on a phone the label and the value are the two columns of its grid.
    return h('tr', { dataset: { id: node.id } },
      COLUMNS.map((c) => h('td', { class: c.wrap ? 'break' : null, dataset: { label: c.label } }, h('span', { class: c.mono ? 'mono' : null }, c.cell(node)))),
      h('td', { class: 'act' }, h('button', { type: 'button', class: 'secondary', onclick: () => redeliver(node.id) }, 'Redeliver', h('span', { class: 'sr-only' }, ` ${node.id}`))));
  }

  async function redeliver(id) {
    try {
      await api.request('RedeliverNotification', { id });
      await load(true);
      $('#notifications-state').textContent = `Notification ${id} is queued for redelivery.`;
      $('#notifications-state').className = 'ok';
      // The table was drawn anew: keep the keyboard user on the same row.
      document.querySelector(`#notifications-table tr[data-id="${CSS.escape(id)}"] button`)?.focus();
    } catch (error) {
      $('#notifications-state').textContent = error.message;
      $('#notifications-state').className = 'error';
    }
  }

  /** Draws the first (fresh) or the next page; false when the deliveries could not be read. */
  async function load(fresh) {
    try {
      if (fresh) after = null;
      const data = await api.request('StaffNotifications', { first: PAGE, after });
      const { edges, pageInfo } = data.notifications;
      const rows = edges.map((e) => row(e.node));
      if (fresh || !$('#notifications-table tbody')) {
        $('#notifications-table').replaceChildren(h('table', {},
          h('caption', { class: 'sr-only' }, 'Notification deliveries'),
          h('thead', {}, h('tr', {}, COLUMNS.map((c) => h('th', { scope: 'col' }, c.label)), h('th', { scope: 'col' }, h('span', { class: 'sr-only' }, 'Actions')))),
          h('tbody', {}, rows)));
      } else {
        $('#notifications-table tbody').append(...rows);
      }
      $('#notifications-table').hidden = fresh && !edges.length;
      if (fresh) {
        $('#notifications-state').textContent = edges.length ? '' : 'No notifications have been sent yet.';
        $('#notifications-state').className = '';
      }
      after = pageInfo.endCursor;
      $('#notifications-more').hidden = !pageInfo.hasNextPage;
      return true;
    } catch (error) {
      unavailable(error);
      return false;
    }
  }

  $('#notifications-refresh').addEventListener('click', () => load(true));
  $('#notifications-more').addEventListener('click', () => load(false));

  return {
    async start() {
      if (!(await load(true))) return;
      // Live: each delivery change reloads the first page, at most twice a second.
      let pending = 0;
      api.follow('StaffNotificationEvents', {}, {
        next: () => { pending ||= setTimeout(() => { pending = 0; load(true); }, 500); },
        error: () => {},
      });
    },
  };
}
