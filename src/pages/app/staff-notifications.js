/**
 * Notification deliveries (document 2, CONTRACT §4-5): the staff `notifications` connection and
 * `redeliverNotification(id)`. The Notification type belongs to the notifications issue; this panel asks the schema
 * which of its plain fields exist and shows those, so it keeps working as that type grows. When the field is not
 * there (that issue has not landed) or the query fails, the panel says the deliveries are not available.
 */
import { $, h } from './dom.js';

/** The columns shown, when the type has them (the body is left out: it is long, and the subject names it). */
const COLUMNS = ['id', 'type', 'path', 'status', 'subject', 'attemptCount', 'createdAt', 'nextAttemptAt', 'deliveredAt', 'lastError'];
const PAGE = 50;
/** Long values that may wrap anywhere; the rest stay on one line (the table scrolls sideways on a phone). */
const WRAPPED = ['id', 'subject', 'lastError'];
const LABELS = { id: 'Id', type: 'Type', path: 'Path', status: 'Status', subject: 'Subject', attemptCount: 'Attempts',
  createdAt: 'Created', nextAttemptAt: 'Next attempt', deliveredAt: 'Delivered', lastError: 'Last error' };

/** The plain (scalar or enum) fields of the Notification type that are among COLUMNS. */
async function columns(api) {
  const data = await api.request('{ __type(name: "Notification") { fields { name type { kind ofType { kind } } } } }');
  const plain = (t) => ['SCALAR', 'ENUM'].includes(t.kind === 'NON_NULL' ? t.ofType?.kind : t.kind);
  const names = (data.__type?.fields ?? []).filter((f) => plain(f.type)).map((f) => f.name);
  if (!names.includes('id')) throw new Error('the Notification type is not in the schema yet.');
  return COLUMNS.filter((n) => names.includes(n));
}

function cell(field, value) {
  if (value === null || value === undefined) return '—';
  return field.endsWith('At') ? new Date(value).toLocaleString() : String(value);
}

export function createNotificationsPanel({ api }) {
  let fields = null;
  let after = null;

  function unavailable(error) {
    $('#notifications-state').textContent = `Notification deliveries are not available: ${error.message}`;
    $('#notifications-state').className = 'notice';
    $('#notifications-more').hidden = true;
  }

  function row(node) {
    return h('tr', { dataset: { id: node.id } },
      fields.map((f) => h('td', { class: WRAPPED.includes(f) ? 'break' : null }, cell(f, node[f]))),
      h('td', {}, h('button', { type: 'button', class: 'secondary', onclick: () => redeliver(node.id) }, 'Redeliver', h('span', { class: 'sr-only' }, ` ${node.id}`))));
  }

  async function redeliver(id) {
    try {
      await api.request('mutation($id: ID!) { redeliverNotification(id: $id) { id } }', { id });
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

  async function load(fresh) {
    try {
      fields ??= await columns(api);
      if (fresh) after = null;
      const data = await api.request(
        `query($first: Int, $after: String) { notifications(first: $first, after: $after) { edges { node { ${fields.join(' ')} } } pageInfo { endCursor hasNextPage } } }`,
        { first: PAGE, after },
      );
      const { edges, pageInfo } = data.notifications;
      const rows = edges.map((e) => row(e.node));
      if (fresh || !$('#notifications-table tbody')) {
        $('#notifications-table').replaceChildren(h('table', {},
          h('caption', { class: 'sr-only' }, 'Notification deliveries'),
          h('thead', {}, h('tr', {}, fields.map((f) => h('th', { scope: 'col' }, LABELS[f])), h('th', { scope: 'col' }, h('span', { class: 'sr-only' }, 'Actions')))),
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
    } catch (error) {
      unavailable(error);
    }
  }

  $('#notifications-refresh').addEventListener('click', () => load(true));
  $('#notifications-more').addEventListener('click', () => load(false));

  return {
    async start() {
      await load(true);
      if (!fields) return;
      // Live: each delivery change reloads the first page, at most twice a second.
      let pending = 0;
      api.follow('subscription { notificationEvents { id } }', {}, {
        next: () => { pending ||= setTimeout(() => { pending = 0; load(true); }, 500); },
        error: () => {},
      });
    },
  };
}
