/** Small DOM helpers shared by the pages: elements built from data, never from HTML strings (no injection). */
import { spell, spelledParts } from './rules.js';

export const $ = (selector) => document.querySelector(selector);

/**
 * h('button', { type: 'button', class: 'x', onclick: f, dataset: { n: 1 } }, 'text', child…)
 * Attributes whose value is false, null or undefined are left out.
 */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === false || value === null || value === undefined) continue;
    if (name === 'dataset') Object.assign(element.dataset, value);
    else if (name.startsWith('on')) element.addEventListener(name.slice(2), value);
    else if (name in element && typeof value !== 'string') element[name] = value;
    else element.setAttribute(name, value === true ? '' : String(value));
  }
  element.append(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
  return element;
}

/**
 * A URL as text with a break opportunity (<wbr>) after each slash and before each dot, ?, &, = and #: where a URL
 * is read across lines. In a phone's column a URL broke wherever the line ended ("hooks.example.c" above "om/…").
 */
export function urlNodes(url) {
  const pieces = url.split(/(?<=\/)(?!\/)|(?=[.?&=#])/u).filter(Boolean);
  return pieces.flatMap((piece, i) => (i === 0 ? [piece] : [h('wbr'), piece]));
}

/** `AWAITING_PAYMENT` → "Awaiting payment". */
export function statusLabel(status) {
  const text = status.toLowerCase().replace(/_/gu, ' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * The wait before try `tries` (0 first) of something that failed: `firstMs` · 2^tries, at most `maxMs`; `jitter`,
 * half to all of that, so a restarted server is not met by every page at once. The pages' one rule for it.
 */
export function retryDelay(tries, { firstMs, maxMs, jitter = true }) {
  const ms = Math.min(maxMs, firstMs * 2 ** tries);
  return jitter ? ms * (0.5 + Math.random() / 2) : ms;
}

/** 125 → "2:05". */
export function minutesAndSeconds(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/**
 * 99 → "1 minute 39 seconds": the time left as a screen reader should say it. "1:39" is read as a time of day
 * ("one thirty-nine") by some of them.
 */
export function spokenDuration(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  const [minutes, rest] = [Math.floor(s / 60), s % 60];
  const unit = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;
  if (minutes === 0) return unit(rest, 'second');
  return rest === 0 ? unit(minutes, 'minute') : `${unit(minutes, 'minute')} ${unit(rest, 'second')}`;
}

/**
 * Sets `element`'s text only when it differs: a live region given the text it already holds gets a new text node,
 * which Chrome reports as an addition and some screen readers (NVDA) say again (the order's status was said twice on
 * load: once when read, once when the subscription's first event repeated it).
 */
export function writeText(element, text) {
  if (element.textContent !== text) element.textContent = text;
}

/**
 * Writes `spell(text)` into `element` (its text stays "A · D · A"), each character with the "·" after it kept on its
 * line: on a phone the spelled text wraps, and a line that began with "·" read as one more character to stitch.
 * Written only when it differs, as `writeText`.
 */
export function writeSpelled(element, text) {
  if (element.textContent === spell(text)) return;
  const parts = spelledParts(text);
  element.replaceChildren(...parts.flatMap((part, i) => {
    const kept = h('span', { class: 'spelled-part' }, i < parts.length - 1 ? `${part} ·` : part);
    return i === 0 ? [kept] : [' ', kept];
  }));
}

/**
 * A live region that speaks about what is being typed only once the typing pauses (`pauseMs` without a change) or
 * `flush()` (the field lost focus), and only when what it would say changed: written at every keystroke it spoke a
 * new sentence per character ("That is 21 characters…", "…22…"), and a mismatch while a name was half typed.
 * `update(text)`: what to say about the field now ('' for nothing).
 */
export function createPausedAnnouncer(region, pauseMs = 700) {
  let timer = 0;
  let pending = '';
  // writeText: a pause that would say what was said last says nothing.
  const flush = () => {
    clearTimeout(timer);
    if (pending) writeText(region, pending);
    pending = '';
  };
  const clear = () => {
    clearTimeout(timer);
    pending = '';
    writeText(region, '');
  };
  return {
    update(text) {
      clearTimeout(timer);
      // Nothing to say (fixed, emptied): silent at once, so the next problem is said again after its own pause.
      if (!text) return clear();
      pending = text;
      timer = setTimeout(flush, pauseMs);
    },
    flush,
    clear,
  };
}

/** How an attendee's pages name an order's status in the tab's title, in the words of the ordering page's steps. */
const STATUS_WORDS = {
  AWAITING_PAYMENT: 'awaiting payment', RECEIVED: 'paid', IN_PROGRESS: 'being stitched', READY: 'ready for pickup',
  COLLECTED: 'collected', CANCELLED: 'cancelled',
};
/** "Order 1003 — awaiting payment": the tab's title while an order is shown (the title is what a tab list reads). */
export const orderTitle = (orderNumber, status) => `Order ${orderNumber} — ${STATUS_WORDS[status] ?? statusLabel(status).toLowerCase()}`;

/**
 * What a hold's countdown says aloud, now and then, not every second: a screen reader reading each tick would drown
 * everything else. Each whole minute, then 30 and 10 seconds; null for every other second.
 */
export function holdAnnouncement(seconds) {
  if (seconds > 0 && seconds % 60 === 0) return `${seconds / 60} minute${seconds === 60 ? '' : 's'} left to pay.`;
  if (seconds === 30 || seconds === 10) return `${seconds} seconds left to pay.`;
  return null;
}

/** The header's connection note (#conn), for connect()'s onState. */
export function showConnection(state, reason) {
  // `reason`: why it is not live when that is not a lost socket (graphql.js: the live connection could not start).
  writeText($('#conn'), state === 'live' ? 'Live' : reason ?? 'Reconnecting…');
  $('#conn').classList.toggle('down', state !== 'live');
}

/**
 * previewImage is at PUBLIC_URL, for agents; a page asks its own origin for the same path, so a page opened under
 * another name (127.0.0.1, a LAN address) still shows it.
 */
export function sameOriginImage(previewImage) {
  const url = new URL(previewImage, location.href);
  return url.pathname + url.search;
}

/**
 * `draw` at the next frame, once however often asked before it, and after each draw a rest as long as it took. At a
 * busy hour a live screen's stream asks faster than a slow screen draws hundreds of cards: drawing at every change
 * left it behind by the sum of every draw, and drawing at every frame still left the stream only the moments between
 * draws. Resting as long as a draw takes leaves at least half the time to taking the stream in.
 */
export function drawSoon(draw) {
  let pending = false;
  let restUntil = 0;
  const atNextFrame = () => requestAnimationFrame(() => {
    pending = false;
    const start = performance.now();
    draw();
    restUntil = 2 * performance.now() - start;
  });
  return () => {
    if (pending) return;
    pending = true;
    const rest = restUntil - performance.now();
    if (rest > 0) setTimeout(atNextFrame, rest);
    else atNextFrame();
  };
}
