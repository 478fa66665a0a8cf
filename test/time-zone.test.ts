import { describe, expect, it } from "vitest";
import { formatTimeInZone, intlParts, zonedDayKey, zonedParts, zonedToUtc } from "@/lib/contracts/time-zone";

const ZONES = [
  "UTC",
  "Europe/Berlin",
  "America/New_York",
  "America/Sao_Paulo",
  "Australia/Lord_Howe", // a 30-minute DST change
  "Asia/Kathmandu", // +05:45
  "Pacific/Apia", // skipped 30 December 2011
  "America/St_Johns",
  "Africa/Monrovia", // -00:44:30 until 1972
];

describe("zonedParts (a day's offset reused)", () => {
  it("agrees with Intl every 7 minutes and 13 seconds across DST changes, in zones with odd offsets", () => {
    const starts = [
      Date.UTC(2026, 2, 27), // Europe springs forward on the 29th
      Date.UTC(2026, 9, 23), // and falls back on the 25th
      Date.UTC(2026, 2, 6), // the US springs forward on 8 March
      Date.UTC(2026, 3, 3), // Lord Howe falls back on 5 April
      Date.UTC(2011, 11, 28), // Samoa crosses the date line
      Date.UTC(1971, 11, 30), // before cached offsets: Monrovia's seconds
    ];
    let checked = 0;
    for (const timeZone of ZONES)
      for (const start of starts)
        for (let time = start; time < start + 4 * 86_400_000; time += 433_000) {
          const date = new Date(time);
          expect(zonedParts(date, timeZone), `${timeZone} ${date.toISOString()}`).toEqual(
            intlParts(date, timeZone),
          );
          checked++;
        }
    expect(checked).toBeGreaterThan(40_000);
  });

  it("keeps the calendar arithmetic built on it", () => {
    // 02:30 on the spring-forward night does not exist in Berlin: it lands just after the gap, at 03:30.
    expect(
      zonedToUtc({ year: 2026, month: 3, day: 29, hour: 2, minute: 30 }, "Europe/Berlin").toISOString(),
    ).toBe("2026-03-29T01:30:00.000Z");
    expect(zonedDayKey(new Date("2026-11-28T23:30:00Z"), "Asia/Kathmandu")).toBe("2026-11-29");
    expect(formatTimeInZone("2026-11-28T23:30:00Z", "America/St_Johns")).toBe("20:00");
  });
});
