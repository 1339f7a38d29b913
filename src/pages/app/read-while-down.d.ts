/** The types of read-while-down.js, for the tests that import it (the page loads the .js as it is). */
export function readWhileDown(options: {
  read: () => Promise<unknown>;
  onRead: (what: unknown, at: Date) => void;
  stopped: () => boolean;
  afterMs?: number;
  everyMs?: number;
}): { soon: () => void; stop: () => void };

export function asOf(at: Date): string;
