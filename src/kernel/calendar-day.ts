/**
 * A day as YYYY-MM-DD, checked against the calendar: `Date` reads 2026-02-30 as March 2 rather than refuse it, and
 * a month 13 as no date at all. Claims' due dates and a webhook recovery's `since` read days through this one test.
 */
const DAY = /^\d{4}-\d{2}-\d{2}$/u;

/** Whether `value` is YYYY-MM-DD and a day the calendar has. */
export function isCalendarDay(value: string): boolean {
  if (!DAY.test(value)) return false;
  const at = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(at.getTime()) && at.toISOString().startsWith(value);
}
