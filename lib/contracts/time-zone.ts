/**
 * A brand's time zone (an IANA name such as Europe/Berlin): its checks and the calendar arithmetic the app
 * does in it. zod-free and Intl-only, so the server and the browser share it. Times are stored in UTC; the
 * UI shows them, and reads the times a marketer types, in the brand's zone.
 */

/** IANA names only (Area/Location, or UTC): an offset such as +01:00 is not a zone (it has no DST rules). */
const ZONE_NAME = /^(?:UTC|[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+){1,2})$/;

/** The canonical spelling of an IANA time zone name (europe/berlin → Europe/Berlin), or null if unknown. */
export function canonicalTimeZone(name: string): string | null {
  if (!ZONE_NAME.test(name)) return null;
  try {
    return new Intl.DateTimeFormat("en-US", { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

/** The zones a picker offers: the runtime's IANA list, with UTC (which the list leaves out). */
export function timeZoneNames(): string[] {
  const names = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
  return names.includes("UTC") ? names : ["UTC", ...names];
}

/** The browser's (or server's) own zone, UTC when it cannot tell. */
export function localTimeZone(): string {
  try {
    return canonicalTimeZone(Intl.DateTimeFormat().resolvedOptions().timeZone) ?? "UTC";
  } catch {
    return "UTC";
  }
}

export type ZonedParts = { year: number; month: number; day: number; hour: number; minute: number };

const partsFormats = new Map<string, Intl.DateTimeFormat>();

/** The wall-clock parts straight from Intl (formatToParts: correct everywhere, but dear in a loop). */
export function intlParts(date: Date, timeZone: string): ZonedParts {
  let format = partsFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
    });
    partsFormats.set(timeZone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(date).map((part) => [part.type, part.value]));
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour) % 24,
    minute: Number(parts.minute),
  };
}

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
const SINCE = Date.UTC(1973, 0, 1);
/** The zone's offset from UTC (wall clock minus UTC, in ms) at an instant on a whole minute. */
const offsetAt = (instant: number, timeZone: string) => {
  const wall = intlParts(new Date(instant), timeZone);
  return Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute) - instant;
};
/**
 * Per zone, per UTC day: the offset when it is the same at the day's first and last minute (no DST change
 * that day), else null. A calendar month asks for a thousand instants on some thirty days: two Intl calls a
 * day instead of one per instant.
 */
const dayOffsets = new Map<string, number | null>();

/** The wall-clock date and time of `date` in `timeZone` (month 1-12). */
export function zonedParts(date: Date, timeZone: string): ZonedParts {
  const time = date.getTime();
  // Since 1973 every zone's offset is whole minutes (Monrovia kept -00:44:30 until 1972).
  if (!(time >= SINCE)) return intlParts(date, timeZone);
  const day = Math.floor(time / DAY_MS) * DAY_MS;
  const key = `${timeZone} ${day}`;
  let offset = dayOffsets.get(key);
  if (offset === undefined) {
    const first = offsetAt(day, timeZone);
    offset = first === offsetAt(day + DAY_MS - MINUTE_MS, timeZone) ? first : null;
    if (dayOffsets.size > 5000) dayOffsets.clear();
    dayOffsets.set(key, offset);
  }
  if (offset === null) return intlParts(date, timeZone);
  const wall = new Date(Math.floor(time / MINUTE_MS) * MINUTE_MS + offset);
  return {
    year: wall.getUTCFullYear(),
    month: wall.getUTCMonth() + 1,
    day: wall.getUTCDate(),
    hour: wall.getUTCHours(),
    minute: wall.getUTCMinutes(),
  };
}

/** The UTC instant at which the wall clock in `timeZone` shows the given date and time. */
export function zonedToUtc(local: ZonedParts, timeZone: string): Date {
  const wanted = Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute);
  // The zone's offset at the guess, then once more at the corrected instant (right across a DST change;
  // a wall time that does not exist, in a spring-forward gap, lands just after it).
  let instant = wanted;
  for (let round = 0; round < 2; round++) {
    const seen = zonedParts(new Date(instant), timeZone);
    const shown = Date.UTC(seen.year, seen.month - 1, seen.day, seen.hour, seen.minute);
    instant += wanted - shown;
  }
  return new Date(instant);
}

const pad = (value: number) => String(value).padStart(2, "0");

/** The brand's day of an instant, as YYYY-MM-DD (the calendar's cells). */
export function zonedDayKey(date: Date, timeZone: string): string {
  const { year, month, day } = zonedParts(date, timeZone);
  return `${year}-${pad(month)}-${pad(day)}`;
}

/** The value of an `<input type="datetime-local">` showing `date` in `timeZone` (YYYY-MM-DDTHH:mm). */
export function toZonedInputValue(date: Date, timeZone: string): string {
  const { hour, minute } = zonedParts(date, timeZone);
  return `${zonedDayKey(date, timeZone)}T${pad(hour)}:${pad(minute)}`;
}

/** An `<input type="datetime-local">` value read in `timeZone`, as the UTC instant; null if malformed. */
export function fromZonedInputValue(value: string, timeZone: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(value);
  if (!match) return null;
  const [year, month, day, hour, minute] = match.slice(1).map(Number);
  return zonedToUtc({ year, month, day, hour, minute }, timeZone);
}

/**
 * The same wall-clock time of day on another day (YYYY-MM-DD) in `timeZone`: what moving a post to another
 * calendar day means, whatever the DST offsets of the two days.
 */
export function onZonedDay(date: Date, dayKey: string, timeZone: string): Date {
  const [year, month, day] = dayKey.split("-").map(Number);
  const { hour, minute } = zonedParts(date, timeZone);
  return zonedToUtc({ year, month, day, hour, minute }, timeZone);
}

/** "Tue 1 Dec, 09:00 (Europe/Berlin)": a time as the UI shows it, in the brand's zone, the zone named. */
export function formatInZone(date: Date | string, timeZone: string, { zone = true } = {}): string {
  const at = typeof date === "string" ? new Date(date) : date;
  // One format per zone (making one costs more than using it: a calendar formats a thousand times).
  let format = displayFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-GB", {
      timeZone,
      weekday: "short",
      day: "numeric",
      month: "short",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    });
    displayFormats.set(timeZone, format);
  }
  const text = format.format(at);
  return zone ? `${text} (${timeZone})` : text;
}
const displayFormats = new Map<string, Intl.DateTimeFormat>();

/** "09:00": the time of day in the zone. */
export function formatTimeInZone(date: Date | string, timeZone: string): string {
  const { hour, minute } = zonedParts(typeof date === "string" ? new Date(date) : date, timeZone);
  return `${pad(hour)}:${pad(minute)}`;
}
