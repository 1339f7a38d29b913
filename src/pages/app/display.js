/**
 * The pickup display's script (/assets/app/display.js, a module after graphql-ws's browser build, a classic script
 * that defines the global `graphqlWs`): follows pickupBoard over graphql-ws and reconnects by itself. It sends the
 * trusted document's hash (graphql.js), never its text.
 */
import { subscription } from './graphql.js';

const board = document.getElementById('board');
const empty = document.getElementById('empty');
const state = document.getElementById('state');
function render(entries) {
  board.replaceChildren(...entries.map((e) => {
    const li = document.createElement('li');
    li.dataset.orderNumber = e.orderNumber;
    const n = document.createElement('div'); n.className = 'number'; n.textContent = e.orderNumber;
    const name = document.createElement('div'); name.className = 'name'; name.textContent = e.displayName;
    li.append(n, name);
    return li;
  }));
  empty.hidden = entries.length > 0;
}
function status(text, down) { state.textContent = text; state.className = down ? 'down' : ''; }
const url = (location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/graphql';
const client = globalThis.graphqlWs.createClient({
  url,
  lazy: false,
  keepAlive: 10000,
  retryAttempts: Infinity,
  shouldRetry: () => true,
  // Jittered exponential backoff (half to all of 500 ms · 2^retries), never more than 10 s, so a restarted server
  // is not met by every display at once.
  retryWait: (retries) => new Promise((r) => setTimeout(r, Math.min(10000, 500 * 2 ** retries) * (0.5 + Math.random() / 2))),
  on: {
    connected: () => status('Live', false),
    closed: () => status('Reconnecting…', true),
  },
});
function follow() {
  client.subscribe(subscription('PickupBoard'), {
    next: (message) => { if (message.data) render(message.data.pickupBoard.board); },
    error: () => { status('Reconnecting…', true); setTimeout(follow, 1000 + Math.random() * 1000); },
    complete: () => setTimeout(follow, 1000),
  });
}
follow();
