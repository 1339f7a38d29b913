/**
 * The page at payUrl (`/pay/{orderNumber}?t=…`). Static HTML; the script reads the order and pays through the
 * public GraphQL API with the payToken from the address, so the page holds no secret of its own.
 * Card and wallet payment join this page with the card vault; until then it offers the demo card.
 */
const STYLE = `
:root{color-scheme:light dark;--ink:#1d2330;--muted:#5b6475;--bg:#f7f5f0;--card:#fff;--accent:#1f4fd1;--ok:#0f7b3f;--bad:#b3261e}
@media (prefers-color-scheme:dark){:root{--ink:#eef0f4;--muted:#a9b1c2;--bg:#14171d;--card:#1e232c;--accent:#8fb0ff;--ok:#6fd49a;--bad:#ff8a80}}
*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;background:var(--bg);color:var(--ink)}
main{max-width:32rem;margin:0 auto;padding:1.25rem}h1{font-size:1.4rem;margin:.2rem 0 1rem}
.card{background:var(--card);border-radius:14px;padding:1rem 1.25rem;margin-bottom:1rem;box-shadow:0 1px 3px #0002}
dl{display:grid;grid-template-columns:auto 1fr;gap:.25rem 1rem;margin:0}dt{color:var(--muted)}dd{margin:0;font-weight:600}
.spell{letter-spacing:.08em;font-family:ui-monospace,Menlo,monospace}
.countdown{font-size:2rem;font-variant-numeric:tabular-nums;font-weight:700}
button{font:inherit;font-weight:600;width:100%;padding:.9rem;border:0;border-radius:10px;background:var(--accent);color:#fff;cursor:pointer}
button:disabled{opacity:.5;cursor:default}button:focus-visible{outline:3px solid var(--ink);outline-offset:2px}
.note{color:var(--muted);font-size:.9rem}.ok{color:var(--ok)}.bad{color:var(--bad)}
`;

export function renderPayPage(orderNumber: string): string {
  // Inside <script>: JSON with `<` escaped, so no value can close the element.
  const n = JSON.stringify(orderNumber).replace(/</gu, '\\u003c');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Pay for sleeve order ${orderNumber.replace(/[^0-9]/gu, '')}</title><style>${STYLE}</style></head>
<body><main>
<h1>Sleeve order <span id="number"></span></h1>
<section class="card" aria-labelledby="summary-title"><h2 id="summary-title" class="note">Your sleeve</h2>
<dl><dt>Size</dt><dd id="size">…</dd><dt>Font</dt><dd id="font">…</dd><dt>Thread</dt><dd id="thread">…</dd>
<dt>Stitch text</dt><dd id="text">…</dd><dt>Spelled</dt><dd id="spelled" class="spell">…</dd></dl></section>
<section class="card" aria-live="polite"><p id="status">Loading…</p><p class="countdown" id="countdown" hidden></p>
<p class="note" id="deadline"></p></section>
<section class="card" id="pay" hidden><p id="pay-label"></p>
<button id="demo" type="button">Pay with the demo card (nothing is charged)</button>
<p class="note">Paying with your own card or wallet opens here once the card vault is enabled.</p></section>
<p id="result" role="status" aria-live="assertive"></p>
</main>
<script type="module">
const orderNumber = ${n};
const token = new URLSearchParams(location.search).get('t') ?? '';
const $ = (id) => document.getElementById(id);
const gql = async (query, variables) => {
  const res = await fetch('/graphql', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify({ query, variables }) });
  return res.json();
};
const FIELDS = 'orderNumber status secondsLeft holdUntil holdUntilText payLabel message order { size font thread stitchText }';
let deadline = 0, timer = 0;
function show(order) {
  $('number').textContent = order.orderNumber;
  for (const k of ['size', 'font', 'thread']) $(k).textContent = order.order[k];
  $('text').textContent = order.order.stitchText;
  $('spelled').textContent = [...order.order.stitchText].map((c) => (c === ' ' ? '(space)' : c)).join(' ');
  $('status').textContent = order.message;
  const held = order.status === 'AWAITING_PAYMENT';
  if (!held) clearTimeout(timer);
  $('pay').hidden = !held; $('countdown').hidden = !held;
  $('deadline').textContent = held ? 'Pay before ' + order.holdUntilText + '.' : '';
  if (held) { $('pay-label').textContent = order.payLabel; deadline = Date.now() + order.secondsLeft * 1000 + 500; tick(); }
}
function tick() {
  clearTimeout(timer);
  const ms = Math.max(0, deadline - Date.now());
  const left = Math.floor(ms / 1000);
  $('countdown').textContent = Math.floor(left / 60) + ':' + String(left % 60).padStart(2, '0');
  // secondsLeft is whole seconds (the hold ends 0–1 s after it says), so the deadline above is the middle of that
  // second; tick just after each whole second passes. At 0:00 ask the server again a second later — never at once
  // and over and over while it still says 0 seconds left.
  timer = left > 0 ? setTimeout(tick, (ms % 1000) + 10) : setTimeout(load, 1000);
}
async function load() {
  const { data } = await gql('query($n: ID!, $t: String!) { order(orderNumber: $n, payToken: $t) { ' + FIELDS + ' } }', { n: orderNumber, t: token });
  if (!data || !data.order) { $('status').textContent = 'This payment link is not valid. Check the link you were given.'; $('status').className = 'bad'; return; }
  show(data.order);
}
$('demo').addEventListener('click', async () => {
  $('demo').disabled = true; $('result').textContent = 'Paying…';
  const { data } = await gql('mutation($n: ID!, $t: String!) { payOrder(orderNumber: $n, input: { t: $t, method: VENDOR_CARD }) { ... on PayResult { message } ... on ApiError { error retryable } } }', { n: orderNumber, t: token });
  const r = data && data.payOrder;
  $('result').textContent = r ? (r.message ?? r.error) : 'Something went wrong. Please try again.';
  $('result').className = r && r.message ? 'ok' : 'bad';
  $('demo').disabled = false; await load();
});
load();
</script></body></html>`;
}
