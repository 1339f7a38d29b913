/**
 * The pickup display without its live connection (a proxy or firewall that lets no WebSocket through, the venue's
 * address at its bound of sockets: docs/edge.md#bounds): the board is read over plain HTTP every `everyMs`, from
 * `afterMs` after the connection was lost (or the page opened) until boards come over the connection again. The
 * screen goes on showing who can pick up, and says it is not live and when it last looked. Before, it showed
 * "Reconnecting…" over the last board it had for as long as the socket was refused.
 */

/**
 * @param {{ read: () => Promise<unknown>, onBoard: (board: unknown, at: Date) => void, stopped: () => boolean,
 *   afterMs?: number, everyMs?: number }} options
 *   read: the board, over HTTP; onBoard: a board read; stopped: live again (or the page reloading), nothing to do.
 * @returns {{ soon: () => void, stop: () => void }} soon: poll from `afterMs` on, unless polling already; stop: until
 *   the next `soon`.
 */
export function pollBoard({ read, onBoard, stopped, afterMs = 5000, everyMs = 5000 }) {
  let timer = 0;
  const stop = () => {
    clearTimeout(timer);
    timer = 0;
  };
  async function poll() {
    if (stopped()) return stop();
    try {
      const board = await read();
      if (stopped()) return stop();
      onBoard(board, new Date());
    } catch {
      // Not reachable over HTTP either (or the page is reloading for new operations): the state says so already.
    }
    timer = stopped() ? 0 : setTimeout(poll, everyMs);
  }
  return {
    soon: () => {
      if (!timer && !stopped()) timer = setTimeout(poll, afterMs);
    },
    stop,
  };
}
