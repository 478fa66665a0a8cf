// A posting schedule's weekly slots as instants, in the brand's time zone. Intl-only and free of server code:
// the server takes the next free slot with it, the calendar draws the empty ones, the publish panel finds the
// next best time.
import { zonedParts, zonedToUtc } from "./time-zone";

/** A weekly slot: ISO weekday (1 Monday) and minutes after midnight, in the brand's zone. */
export type WeeklySlot = { weekday: number; minute: number };

const DAY_MS = 86_400_000;

export const slotTime = (minute: number) =>
  `${String(Math.floor(minute / 60)).padStart(2, "0")}:${String(minute % 60).padStart(2, "0")}`;
export const slotMinute = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/**
 * Every slot instant in [from, to), earliest first. Each day is walked in the brand's zone and its slots
 * converted with that day's offset, so a 09:00 slot stays 09:00 on both sides of a daylight-saving change. A
 * slot in the spring-forward gap (02:30 that day in Berlin) falls just after the gap; in the autumn's repeated
 * hour it is the second 02:30 (standard time). Two slots that land on one instant count once.
 */
export function slotInstants(slots: WeeklySlot[], timeZone: string, from: Date, to: Date): Date[] {
  if (!slots.length || to <= from) return [];
  const byWeekday = new Map<number, number[]>();
  for (const { weekday, minute } of slots)
    byWeekday.set(weekday, [...(byWeekday.get(weekday) ?? []), minute]);
  for (const minutes of byWeekday.values()) minutes.sort((a, b) => a - b);
  const start = zonedParts(from, timeZone);
  // Calendar days as UTC dates, only for their year/month/day and weekday (no zone arithmetic).
  let day = Date.UTC(start.year, start.month - 1, start.day);
  const out: Date[] = [];
  const seen = new Set<number>();
  for (;;) {
    const date = new Date(day);
    const parts = { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
    const weekday = ((date.getUTCDay() + 6) % 7) + 1;
    // The day's midnight in the zone; once it is past `to`, no slot of this day or later is in the window.
    if (zonedToUtc({ ...parts, hour: 0, minute: 0 }, timeZone) >= to) return out;
    for (const minute of byWeekday.get(weekday) ?? []) {
      const at = zonedToUtc({ ...parts, hour: Math.floor(minute / 60), minute: minute % 60 }, timeZone);
      if (at >= from && at < to && !seen.has(at.getTime())) {
        seen.add(at.getTime());
        out.push(at);
      }
    }
    day += DAY_MS;
  }
}

/** The first slot instant after `after` not in `taken` (epoch ms), within `horizonDays`; null if none. */
export function nextFreeSlot(
  slots: WeeklySlot[],
  timeZone: string,
  after: Date,
  taken: ReadonlySet<number>,
  horizonDays: number,
): Date | null {
  const from = new Date(after.getTime() + 1);
  const to = new Date(after.getTime() + horizonDays * DAY_MS);
  // A week at a time, so a full schedule does not walk a year of days in one go.
  for (let start = from; start < to; start = new Date(start.getTime() + 7 * DAY_MS)) {
    const end = new Date(Math.min(start.getTime() + 7 * DAY_MS, to.getTime()));
    const free = slotInstants(slots, timeZone, start, end).find((at) => !taken.has(at.getTime()));
    if (free) return free;
  }
  return null;
}

/** The next instant (after `after`) at one of the given weekday × hour best times, in the zone; null if none. */
export function nextBestTime(
  times: Array<{ weekday: number; hour: number }>,
  timeZone: string,
  after: Date,
): Date | null {
  const slots = times.map(({ weekday, hour }) => ({ weekday, minute: hour * 60 }));
  return nextFreeSlot(slots, timeZone, after, new Set(), 8);
}
