/**
 * A wait with a bound: whatever waits on a database, Redis or a peer that may answer nothing (frozen, a network
 * dropping packets) takes what `work` settles to, or what `late()` gives once `ms` have passed first. Seven places
 * wrote this race by hand, some leaving their timer to fire after the work had settled.
 */

/**
 * `work`'s outcome, or `late()`'s past `ms` (its value, or its throw as the rejection). The timer is cleared as soon
 * as either side settles, so it never holds a process open longer than the wait it bounds.
 */
export function within<T, L>(work: Promise<T>, ms: number, late: () => L): Promise<T | L> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<L>((resolve, reject) => {
    timer = setTimeout(() => {
      try {
        resolve(late());
      } catch (error) {
        reject(error);
      }
    }, ms);
  });
  return Promise.race([work, expired]).finally(() => clearTimeout(timer));
}
