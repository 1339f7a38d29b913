/**
 * The pickup display's script (/assets/app/display.js, a module after graphql-ws's browser build, a classic script
 * that defines the global `graphqlWs`): follows pickupBoard over graphql-ws (graphql.js's client: it reconnects by
 * itself, and notices a silently dead connection within seconds) and says "Live" only while boards come. It sends the
 * trusted document's hash, never its text; open across a deploy that changed it, the page reloads itself.
 *
 * Every ready order is shown, whatever their number (issue 18): the cards shrink until all fit, but never below a
 * floor readable across a room (6% of the screen's height on a big screen); past that the board pages through the rest by itself
 * ("Page 2 of 3", with the count of ready orders), one page every `pageSeconds` (8 s; `?pageSeconds=` sets it).
 * An order that has just become ready is highlighted for a few seconds. Without the connection, it reads the board
 * over HTTP every few seconds (read-while-down.js) and says it is not live.
 */
import { drawSoon } from './dom.js';
import { connect } from './graphql.js';
import { asOf, readWhileDown } from './read-while-down.js';

const params = new URLSearchParams(location.search);
const PAGE_MS = Math.min(120, Math.max(0.2, Number(params.get('pageSeconds')) || 8)) * 1000;
const NEW_MS = 6000;
/**
 * The floor: 6% of the screen's height (about 65 px on a 1080p screen, 130 px at 4K, 46 px on a laptop), held to a
 * ninth of its width so a phone still shows two columns, and never under 40 px.
 */
const floorSize = () => Math.max(40, Math.min(innerHeight * 0.06, innerWidth / 9));

const board = document.getElementById('board');
const main = document.querySelector('main');
const empty = document.getElementById('empty');
const state = document.getElementById('state');
const count = document.getElementById('count');
const pageNote = document.getElementById('page');
const announce = document.getElementById('announce');

let shown = null; // order numbers on the board, null before the first snapshot
let pages = [[]];
let page = 0;
let pageTimer = 0;
/** One digit's width in em of the number's font (bold, tabular), measured once. */
let digitEm = 0;
/** The board's room, measured again when it resizes (measuring lays out every card). */
let space = null;
/** The card size the last layout chose (0 before the first). */
let chosen = 0;

function card(entry) {
  const li = document.createElement('li');
  li.dataset.orderNumber = entry.orderNumber;
  const n = document.createElement('div'); n.className = 'number'; n.textContent = entry.orderNumber;
  const name = document.createElement('div'); name.className = 'name'; name.textContent = entry.displayName;
  // Laid out in its own direction: "محمد ع." came out with its full stop on the wrong side in the English card.
  name.dir = 'auto';
  li.append(n, name);
  return li;
}

function measureDigit() {
  const probe = document.createElement('span');
  probe.className = 'number';
  probe.style.cssText = 'position:absolute;visibility:hidden;font-size:100px';
  probe.textContent = '0000000000';
  document.body.append(probe);
  digitEm = probe.getBoundingClientRect().width / 1000 || 0.7;
  probe.remove();
}

/** The room the board has: main's content box, in fractional pixels (a rounded pixel is a clipped row). */
function room() {
  const style = getComputedStyle(main);
  const box = main.getBoundingClientRect();
  return {
    width: box.width - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight),
    height: box.height - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom),
  };
}

function setSize(size, digits) {
  board.style.setProperty('--s', `${size}px`);
  // A card is as wide as its number (plus padding and the coloured edge): never narrower, so no number is cut.
  board.style.setProperty('--w', String(digitEm * digits + 0.8));
}

/** Whether every card fits the room at the size set now. */
function fits(space) {
  return board.getBoundingClientRect().height <= space.height && board.scrollWidth <= board.clientWidth;
}

/** The cards in rows (as the grid placed them), then rows gathered into pages that each fit the room's height. */
function paginate(items, height) {
  const rows = [];
  for (const li of items) {
    const { top, bottom } = li.getBoundingClientRect();
    const row = rows.at(-1);
    if (row && Math.abs(row.top - top) < 1) { row.items.push(li); row.bottom = Math.max(row.bottom, bottom); }
    else rows.push({ top, bottom, items: [li] });
  }
  const result = [];
  let start = null;
  for (const row of rows) {
    if (start === null || row.bottom - start > height) { result.push([]); start = row.top; }
    result.at(-1).push(...row.items);
  }
  return result.length ? result : [[]];
}

/**
 * The largest size from the floor to the ceiling at which every card fits, to a pixel; the floor when none does.
 * Each try is a layout of every card (tens of milliseconds for 200 on a slow screen), so the search starts at the
 * size chosen last time: at a busy hour the board stays paged at the floor change after change, and one try says
 * so; a board that grew by a card needs a short search below that size, not one from the ceiling down.
 */
function largestFitting(box, digits, floor, ceiling) {
  const fitsAt = (size) => { setSize(size, digits); return fits(box); };
  const guess = Math.min(ceiling, Math.max(floor, chosen || ceiling));
  let low = floor;
  let high = ceiling;
  if (fitsAt(guess)) {
    if (guess === ceiling || fitsAt(ceiling)) return ceiling;
    low = guess;
  } else {
    if (guess === floor || !fitsAt(floor)) { setSize(floor, digits); return floor; }
    high = guess;
  }
  while (high - low > 1) {
    const mid = (low + high) / 2;
    if (fitsAt(mid)) low = mid; else high = mid;
  }
  setSize(low, digits);
  return low;
}

/** The largest size at which all cards fit, down to the floor; paged at the floor when even that is too many. */
function layout() {
  const items = [...board.children];
  for (const li of items) li.hidden = false;
  if (!digitEm) measureDigit();
  space ??= room();
  const digits = Math.max(4, ...items.map((li) => li.dataset.orderNumber.length));
  const floor = floorSize();
  const ceiling = Math.max(floor, Math.min(innerHeight * 0.2, space.width / (digitEm * digits + 0.8)));
  chosen = largestFitting(space, digits, floor, ceiling);
  pages = fits(space) ? [items] : paginate(items, space.height);
  page = Math.min(page, pages.length - 1);
  showPage();
}

/**
 * A paged board at a busy hour: an order that has just become ready is on the last page (the board is in the order
 * they became ready), up to a whole cycle away, and its highlight ran out unseen (the reviewer's took 30 s to show).
 * So the next turn shows the page with the newest arrival, and the turn after it goes back to where the cycle was:
 * however often orders arrive, every page still comes round. A card's highlight lasts NEW_MS from when it is shown.
 */
let newest = null;
let resumeAt = null;
const highlighted = new WeakSet();

function showPage() {
  const visible = new Set(pages[page]);
  for (const li of board.children) li.hidden = !visible.has(li);
  for (const li of visible) {
    if (!li.classList.contains('new') || highlighted.has(li)) continue;
    highlighted.add(li);
    setTimeout(() => li.classList.remove('new'), NEW_MS);
  }
  if (newest && visible.has(newest)) newest = null;
  // The note keeps its place either way (display.css), so showing it never takes room from the board.
  pageNote.textContent = pages.length > 1 ? `Page ${page + 1} of ${pages.length}` : '';
  // The cycle keeps its own pace: at a busy hour the board changes every few seconds, and restarting the wait at
  // each change would keep the later pages from ever being shown.
  if (pages.length > 1 && !pageTimer) pageTimer = setTimeout(nextPage, PAGE_MS);
}

function nextPage() {
  pageTimer = 0;
  const withNewest = newest ? pages.findIndex((p) => p.includes(newest)) : -1;
  if (withNewest >= 0 && resumeAt === null) {
    resumeAt = (page + 1) % pages.length;
    page = withNewest;
  } else {
    page = (resumeAt ?? page + 1) % pages.length;
    resumeAt = null;
  }
  showPage();
}

let drawn = '';
function render(entries) {
  // The stream repeats the board after changes that do not touch it (a payment, say): nothing to draw then.
  const key = JSON.stringify(entries.map((e) => [e.orderNumber, e.displayName]));
  if (key === drawn) return showEmpty();
  drawn = key;
  const before = shown;
  shown = new Set(entries.map((e) => e.orderNumber));
  const fresh = before ? entries.filter((e) => !before.has(e.orderNumber)) : [];
  const old = new Map([...board.children].map((li) => [li.dataset.orderNumber, li]));
  board.replaceChildren(...entries.map((e) => old.get(e.orderNumber) ?? card(e)));
  for (const e of fresh) {
    const li = board.querySelector(`li[data-order-number="${CSS.escape(e.orderNumber)}"]`);
    li.classList.add('new'); // its NEW_MS start when its page is shown (showPage)
    newest = li;
  }
  if (fresh.length) announce.textContent = `Ready for pickup: ${fresh.map((e) => e.orderNumber).join(', ')}.`;
  showEmpty();
  count.textContent = entries.length ? `${entries.length} ready` : '';
  layout();
}

/**
 * Only the newest board is drawn (dom.js's drawSoon: at the next frame, resting as long as a draw takes). At a busy
 * hour the stream sends a board per change, faster than a slow screen lays out hundreds of cards. Drawing each in
 * turn left it seconds behind (CI saw 187 of 200 ready after 5 s on a busy runner); drawing at every frame still
 * gave the stream only the moments between draws, so the last board came seconds after the server sent it. Orders
 * that became ready between two draws are highlighted together; a hidden page draws when shown.
 */
let latest = null;
const drawLatest = drawSoon(() => render(latest));
function receive(entries) {
  latest = entries;
  drawLatest();
}

// Whatever changes the board's room (the window, the header's notes wrapping), it is laid out again.
let room_ = '';
new ResizeObserver(() => {
  const now = `${main.clientWidth}x${main.clientHeight}`;
  if (now !== room_) { room_ = now; space = null; layout(); }
}).observe(main);

/**
 * "Live" only once a board has come over the connection as it is now: a socket connected is not a board (the server
 * may refuse the operation), and a lost one shows the last board under "Reconnecting…". The note under an empty
 * board says "No orders are ready yet" only then too: before the first snapshot it would be a guess.
 */
let live = false;
/** The server no longer knows this page's operation: the page reloads (graphql.js), nothing else is tried. */
let outdated = false;
const NO_ORDERS = 'No orders are ready yet. Paid orders appear here as soon as they are ready.';
const NOT_KNOWN = 'The ready orders appear here as soon as this screen is connected.';

function status(text, down) { state.textContent = text; state.className = down ? 'down' : ''; }
function showEmpty() {
  empty.hidden = board.children.length > 0;
  empty.textContent = live || polled ? NO_ORDERS : NOT_KNOWN;
}
function lost(text) {
  live = false;
  // Polling (read-while-down.js) says how current its board is: a failed reconnect does not hide that.
  if (!polled || outdated) status(text, true);
  showEmpty();
  polling.soon();
}

/** Read over HTTP while the connection brings nothing (read-while-down.js); null while live. */
let polled = null;
const POLL_SECONDS = 5;
const polling = readWhileDown({
  read: async () => (await api.request('PickupBoardNow')).pickupBoard,
  stopped: () => live || outdated,
  everyMs: POLL_SECONDS * 1000,
  onRead: (entries, at) => {
    polled = at;
    status(`Not live: as of ${asOf(at)}, checked every ${POLL_SECONDS} s`, true);
    receive(entries);
  },
});

const api = connect({
  onState: (connection, reason) => {
    if (connection === 'down' && !outdated) lost(reason ?? 'Reconnecting…');
  },
});
let stop = () => {};
function follow() {
  stop = api.follow('PickupBoard', {}, {
    next: (data) => {
      if (!live) { live = true; polled = null; polling.stop(); status('Live', false); }
      receive(data.pickupBoard.board);
    },
    error: (error) => {
      stop();
      // A display open across a deploy that changed its operation (docs/graphql.md#trusted-documents): graphql.js
      // reloads it (at most once a minute); until then it says why it is not live.
      if (error.code === 'PERSISTED_QUERY_NOT_FOUND') {
        outdated = true;
        lost('This screen is out of date: reloading…');
        return;
      }
      lost('Reconnecting…');
      setTimeout(follow, 1000 + Math.random() * 1000);
    },
    complete: () => setTimeout(follow, 1000),
  });
}
follow();
polling.soon(); // a connection that opens but never brings a board is no connection either
