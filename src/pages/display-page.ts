/**
 * The pickup display at /display: a big screen at the pickup station showing the orders ready for pickup
 * (large order numbers, first name and last initial). It follows the public `pickupBoard` subscription over
 * graphql-ws and reconnects by itself, with jittered backoff, after the server restarts; every (re)connection
 * starts with the whole current board, so it is right again within a second of reconnecting.
 * No CDN: the graphql-ws client is served by this server from node_modules.
 */
const STYLE = `
*{box-sizing:border-box}html,body{margin:0;height:100%}
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;background:#0f1420;color:#f4f6fb;display:flex;flex-direction:column}
header{display:flex;justify-content:space-between;align-items:baseline;padding:2vh 3vw;border-bottom:2px solid #243049}
h1{margin:0;font-size:min(5vh,8vw);font-weight:800;letter-spacing:.02em}
#state{font-size:2.4vh;color:#9fb0d0}#state.down{color:#ffb4a9}
main{flex:1;padding:3vh 3vw;overflow:hidden}
ul{list-style:none;margin:0;padding:0;display:grid;grid-template-columns:repeat(auto-fill,minmax(max(22vw,16rem),1fr));gap:2.5vh 2vw}
li{min-width:0;background:#1b2336;border-radius:2vh;padding:2.5vh max(2vw,1rem);border-left:1vh solid #4ade80;animation:in .6s ease-out}
.number{font-size:min(9vh,18vw);font-weight:800;line-height:1;font-variant-numeric:tabular-nums}
.name{font-size:3.6vh;color:#cbd5ea;margin-top:1vh;overflow-wrap:anywhere}
#empty{font-size:3.5vh;color:#9fb0d0;text-align:center;margin-top:20vh}
footer{padding:1.5vh 3vw;font-size:2.2vh;color:#9fb0d0;border-top:2px solid #243049}
@keyframes in{from{transform:scale(.92);opacity:0}to{transform:none;opacity:1}}
@media (prefers-reduced-motion:reduce){li{animation:none}}
`;

export function renderDisplayPage(): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Ready for pickup</title><style>${STYLE}</style></head>
<body>
<header><h1>Ready for pickup</h1><span id="state" role="status" aria-live="polite">Connecting…</span></header>
<main><ul id="board" aria-label="Orders ready for pickup" aria-live="polite"></ul>
<p id="empty">No orders are ready yet. Paid orders appear here as soon as they are ready.</p></main>
<footer>Bring your order number and give the first and last name on the order.</footer>
<script src="/assets/graphql-ws.js"></script>
<script>
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
const client = graphqlWs.createClient({
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
  client.subscribe({ query: 'subscription { pickupBoard { board { orderNumber displayName } } }' }, {
    next: (message) => { if (message.data) render(message.data.pickupBoard.board); },
    error: () => { status('Reconnecting…', true); setTimeout(follow, 1000 + Math.random() * 1000); },
    complete: () => setTimeout(follow, 1000),
  });
}
follow();
</script>
</body></html>`;
}
