/**
 * A live screen without its live connection (a proxy or firewall that lets no WebSocket through, the venue's address
 * at its bound of sockets: docs/edge.md#bounds) reads what it shows over plain HTTP every `everyMs`, from `afterMs`
 * after the connection was lost (or the page opened) until the connection brings news again: the pickup display
 * its board, the staff console its queue. Each says it is not live and as of when. Before, they said
 * "Reconnecting…" over what they last had, or over nothing, for as long as the socket was refused.
 */

/**
 * @param {{ read: () => Promise<unknown>, onRead: (what: unknown, at: Date) => void, stopped: () => boolean,
 *   afterMs?: number, everyMs?: number }} options
 *   read: what the screen shows, over HTTP; onRead: it was read; stopped: live again (or the page reloading).
 * @returns {{ soon: () => void, stop: () => void }} soon: read from `afterMs` on, unless reading already; stop: until
 *   the next `soon`.
 */
export function readWhileDown({ read, onRead, stopped, afterMs = 5000, everyMs = 5000 }) {
  let timer = 0;
  // A read under way schedules the next itself: a `soon` meanwhile (live, then lost again) must not start a second chain.
  let reading = false;
  const stop = () => {
    clearTimeout(timer);
    timer = 0;
  };
  async function poll() {
    timer = 0;
    if (stopped()) return;
    reading = true;
    try {
      const what = await read();
      if (!stopped()) onRead(what, new Date());
    } catch {
      // Not reachable over HTTP either (or the page is reloading for new operations): the screen says so already.
    } finally {
      reading = false;
    }
    if (!stopped()) timer = setTimeout(poll, everyMs);
  }
  return {
    soon: () => {
      if (!timer && !reading && !stopped()) timer = setTimeout(poll, afterMs);
    },
    stop,
  };
}

/** A time as the screens show "as of": 10:42:05, in the device's own form. */
export const asOf = (at) => at.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });
