/**
 * DESIGN §11: a publication's results are pulled by its age: hourly for the first 24 hours, every 6 hours
 * to day 7, daily to day 30, weekly to day 90, then never.
 */

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
export const COLLECT_FOR_MS = 90 * DAY_MS;

const STEPS: [ageBelowMs: number, intervalMs: number][] = [
  [DAY_MS, HOUR_MS],
  [7 * DAY_MS, 6 * HOUR_MS],
  [30 * DAY_MS, DAY_MS],
  [COLLECT_FOR_MS, 7 * DAY_MS],
];

/** How long after a pull at `ageMs` the next one is due, or null when the publication is past collecting. */
export function pullIntervalMs(ageMs: number): number | null {
  for (const [below, interval] of STEPS) if (ageMs < below) return interval;
  return null;
}

/** When a publication pulled at `now` is next due: never past day 90 (the last pull is at day 90). */
export function nextPullAt(publishedAt: Date, now: Date): Date | null {
  const age = now.getTime() - publishedAt.getTime();
  const interval = pullIntervalMs(Math.max(0, age));
  if (interval === null) return null;
  return new Date(Math.min(now.getTime() + interval, publishedAt.getTime() + COLLECT_FOR_MS));
}
