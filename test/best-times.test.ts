import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDatabase, getDb } from "@/db/client";
import {
  brands,
  channelConnections,
  channelScheduleSlots,
  posts,
  publicationMetricLatest,
  publications,
} from "@/db/schema";
import { isUniqueViolation } from "@/lib/auth/users";
import { BEST_TIMES_MIN_POSTS } from "@/lib/contracts/best-times";
import { nextFreeSlot, slotInstants } from "@/lib/contracts/slot-times";
import { zonedParts, zonedToUtc } from "@/lib/contracts/time-zone";
import { newId } from "@/lib/ids";
import { bestTimesFor, PLATFORM_DEFAULT_TIMES, rankHours } from "@/lib/insights/best-times";
import { findNextSlot } from "@/lib/publishing/schedule/channel-schedule";
import { migrateInProcess } from "./support/database";
import { createTestDatabase } from "./support/test-server";

// Best times and the queue's slots, in this process against a database of its own (PGlite, or a fresh
// PostgreSQL database when DATABASE_URL is set): rows are seeded as the publisher and the collector leave them.

const saved = { ...process.env };
let dropDatabase: (() => Promise<void>) | undefined;
const NOW = new Date("2026-11-28T12:00:00Z");
const BERLIN = "Europe/Berlin";
const NEW_YORK = "America/New_York";

beforeAll(async () => {
  Object.assign(process.env, {
    DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "bs-best-times-")),
    AUTH_SECRET: process.env.AUTH_SECRET ?? "best-times-test-secret-0123456789abcdef",
  });
  if (saved.DATABASE_URL) {
    const database = await createTestDatabase(saved.DATABASE_URL);
    process.env.DATABASE_URL = database.url;
    dropDatabase = database.drop;
  }
  await migrateInProcess();
});

afterAll(async () => {
  await closeDatabase();
  await dropDatabase?.();
  fs.rmSync(process.env.DATA_DIR ?? "", { recursive: true, force: true });
  for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
  Object.assign(process.env, saved);
});

async function newChannel(timeZone: string, channel: "telegram" | "linkedin" = "telegram") {
  const db = await getDb();
  const brandId = newId("brd");
  await db.insert(brands).values({ id: brandId, name: "Timing brand", timeZone });
  const channelId = newId("chn");
  await db.insert(channelConnections).values({
    id: channelId,
    brandId,
    channel,
    externalId: channelId,
    accountName: "Timing channel",
    credentials: "unused",
  });
  return { brandId, channelId };
}

async function newPost(brandId: string) {
  const postId = newId("pst");
  await (await getDb()).insert(posts).values({
    id: postId,
    groupId: postId,
    brandId,
    channel: "telegram",
    goal: "awareness",
    topic: "Autumn blend",
    caption: "Our autumn blend is here.",
    mediaPlan: { format: "text", items: [] },
    hashtags: [],
    status: "published",
    seed: 1,
    provider: "local",
    model: "test",
    latencyMs: 1,
  } as unknown as typeof posts.$inferInsert);
  return postId;
}

/** A published post at `local` wall-clock time in `timeZone`, with its latest reach and interactions. */
async function measured(
  { brandId, channelId }: { brandId: string; channelId: string },
  timeZone: string,
  local: string,
  { reach, interactions }: { reach: number; interactions: number | null },
) {
  const [date, time] = local.split(" ");
  const [year, month, day] = date.split("-").map(Number);
  const [hour, minute] = time.split(":").map(Number);
  const publishedAt = zonedToUtc({ year, month, day, hour, minute }, timeZone);
  const db = await getDb();
  const postId = await newPost(brandId);
  const id = newId("pub");
  await db.insert(publications).values({
    id,
    brandId,
    postId,
    channelId,
    channel: "telegram",
    status: "published",
    publishAt: publishedAt,
    publishedAt,
  });
  const metrics = [{ metric: "reach" as const, value: reach }];
  if (interactions !== null) metrics.push({ metric: "interactions" as never, value: interactions });
  await db
    .insert(publicationMetricLatest)
    .values(metrics.map((m) => ({ publicationId: id, brandId, ...m, capturedAt: NOW })));
  return publishedAt;
}

describe("best times", () => {
  it("ranks weekday × hour in the brand's zone by interactions ÷ reach, across a DST change", async () => {
    const target = await newChannel(NEW_YORK);
    // New York leaves daylight saving on 1 November 2026: 18:00 is 22:00 UTC before and 23:00 UTC after.
    for (const day of ["2026-10-20", "2026-10-27", "2026-11-03", "2026-11-10"])
      await measured(target, NEW_YORK, `${day} 18:00`, { reach: 1000, interactions: 200 });
    for (const day of ["2026-10-19", "2026-10-26", "2026-11-02", "2026-11-09", "2026-11-16"])
      await measured(target, NEW_YORK, `${day} 09:00`, { reach: 1000, interactions: 50 });
    for (const day of ["2026-10-22", "2026-10-29", "2026-11-05"])
      await measured(target, NEW_YORK, `${day} 12:00`, { reach: 2000, interactions: 200 });

    const best = await bestTimesFor(target.brandId, target.channelId, NOW);
    expect(best).toEqual({
      channelId: target.channelId,
      source: "brand",
      measuredPosts: 12,
      timeZone: NEW_YORK,
      times: [
        { weekday: 2, hour: 18, score: 1 },
        { weekday: 4, hour: 12, score: 0.5 },
        { weekday: 1, hour: 9, score: 0.25 },
      ],
    });
  });

  it("leaves out posts younger than 48 hours, with no reach or no interactions; below the minimum: the platform's defaults, labelled", async () => {
    const target = await newChannel(BERLIN, "linkedin");
    const days = ["2026-11-02", "2026-11-03", "2026-11-04", "2026-11-05", "2026-11-06", "2026-11-09"];
    for (const day of days) await measured(target, BERLIN, `${day} 10:00`, { reach: 500, interactions: 20 });
    for (const day of ["2026-11-10", "2026-11-11", "2026-11-12"])
      await measured(target, BERLIN, `${day} 14:00`, { reach: 500, interactions: 40 });
    // Not measured: too recent, no reach, no interactions.
    await measured(target, BERLIN, "2026-11-27 10:00", { reach: 500, interactions: 40 });
    await measured(target, BERLIN, "2026-11-13 10:00", { reach: 0, interactions: 40 });
    await measured(target, BERLIN, "2026-11-16 10:00", { reach: 500, interactions: null });

    const best = await bestTimesFor(target.brandId, target.channelId, NOW);
    expect(best.measuredPosts).toBe(BEST_TIMES_MIN_POSTS - 1);
    expect(best.source).toBe("platform_defaults");
    expect(best.timeZone).toBe(BERLIN);
    expect(best.times.map(({ weekday, hour }) => [weekday, hour])).toEqual(PLATFORM_DEFAULT_TIMES.linkedin);

    // The tenth measured post turns them into the brand's own.
    await measured(target, BERLIN, "2026-11-19 14:00", { reach: 500, interactions: 40 });
    const own = await bestTimesFor(target.brandId, target.channelId, NOW);
    expect(own).toMatchObject({ source: "brand", measuredPosts: BEST_TIMES_MIN_POSTS });
    expect(own.times[0]).toEqual({ weekday: 4, hour: 14, score: 1 });
  });

  it("smooths each hour with its neighbours: a lone great hour beside a poor one ranks below a steady one", () => {
    const wednesday = 2 * 24;
    const friday = 4 * 24;
    const times = rankHours([
      { weekHour: wednesday + 10, rate: 0.3 },
      { weekHour: wednesday + 11, rate: 0.1 },
      { weekHour: friday + 10, rate: 0.25 },
    ]);
    expect(times.map(({ weekday, hour }) => [weekday, hour])).toEqual([
      [5, 10],
      [3, 10],
      [3, 11],
    ]);
    // Wednesday 10:00: (0.3 + ½·0.1) / 1.5; Friday 10:00: 0.25 alone.
    expect(times[1].score).toBeCloseTo(0.233 / 0.25, 2);
  });

  it("answers defaults with nothing measured for a channel of another brand", async () => {
    const mine = await newChannel(BERLIN);
    const theirs = await newChannel(BERLIN);
    expect(await bestTimesFor(mine.brandId, theirs.channelId, NOW)).toMatchObject({
      source: "platform_defaults",
      measuredPosts: 0,
      times: [],
    });
  });
});

const at = (iso: string) => new Date(iso).getTime();

describe("the queue's slots across daylight saving (Europe/Berlin)", () => {
  const sundayAndMonday = [
    { weekday: 7, minute: 9 * 60 },
    { weekday: 1, minute: 9 * 60 },
  ];

  it("keeps 09:00 at 09:00 in Berlin on both sides of the last Sunday of March", () => {
    // Summer time starts on Sunday 28 March 2027: 09:00 is 08:00 UTC the Sunday before, 07:00 UTC on it.
    const before = nextFreeSlot(sundayAndMonday, BERLIN, new Date("2027-03-20T12:00:00Z"), new Set(), 365);
    expect(before?.toISOString()).toBe("2027-03-21T08:00:00.000Z");
    const on = nextFreeSlot(sundayAndMonday, BERLIN, new Date("2027-03-27T12:00:00Z"), new Set(), 365);
    expect(on?.toISOString()).toBe("2027-03-28T07:00:00.000Z");
    const taken = new Set([at("2027-03-28T07:00:00Z")]);
    const after = nextFreeSlot(sundayAndMonday, BERLIN, new Date("2027-03-27T12:00:00Z"), taken, 365);
    expect(after?.toISOString()).toBe("2027-03-29T07:00:00.000Z");
  });

  it("and of October; a slot in the skipped hour falls after it, one in the repeated hour is the second", () => {
    // Winter time starts on Sunday 31 October 2027.
    const slots = slotInstants(
      [
        { weekday: 6, minute: 9 * 60 },
        { weekday: 7, minute: 9 * 60 },
        { weekday: 7, minute: 2 * 60 + 30 },
      ],
      BERLIN,
      new Date("2027-10-29T23:00:00Z"),
      new Date("2027-11-01T00:00:00Z"),
    );
    expect(slots.map((slot) => slot.toISOString())).toHaveLength(3);
    expect(slots[0].toISOString()).toBe("2027-10-30T07:00:00.000Z");
    // 02:30 happens twice that night (00:30 and 01:30 UTC): the slot is the second, in standard time.
    expect(slots[1].toISOString()).toBe("2027-10-31T01:30:00.000Z");
    expect(zonedParts(slots[1], BERLIN)).toMatchObject({ day: 31, hour: 2, minute: 30 });
    expect(slots[2].toISOString()).toBe("2027-10-31T08:00:00.000Z");

    const gap = slotInstants(
      [{ weekday: 7, minute: 2 * 60 + 30 }],
      BERLIN,
      new Date("2027-03-27T23:00:00Z"),
      new Date("2027-03-28T22:00:00Z"),
    );
    expect(gap).toHaveLength(1);
    expect(gap[0].toISOString()).toBe("2027-03-28T01:30:00.000Z");
    expect(zonedParts(gap[0], BERLIN)).toMatchObject({ day: 28, hour: 3, minute: 30 });
  });

  it("skips slots an active publication holds; a canceled one frees its slot", async () => {
    const target = await newChannel(BERLIN);
    const db = await getDb();
    await db.insert(channelScheduleSlots).values([
      { channelId: target.channelId, weekday: 7, minute: 9 * 60 },
      { channelId: target.channelId, weekday: 1, minute: 9 * 60 },
    ]);
    const channel = { id: target.channelId, brandId: target.brandId };
    const now = new Date("2027-03-27T12:00:00Z");
    expect((await findNextSlot(channel, db, now)).at?.toISOString()).toBe("2027-03-28T07:00:00.000Z");

    const postId = await newPost(target.brandId);
    const slotAt = new Date("2027-03-28T07:00:00Z");
    const row = {
      brandId: target.brandId,
      postId,
      channelId: target.channelId,
      channel: "telegram" as const,
      status: "scheduled" as const,
      publishAt: slotAt,
      slotAt,
    };
    const first = newId("pub");
    await db.insert(publications).values({ id: first, ...row });
    expect((await findNextSlot(channel, db, now)).at?.toISOString()).toBe("2027-03-29T07:00:00.000Z");

    // The database refuses a second active publication in the slot.
    const second = await db
      .insert(publications)
      .values({ id: newId("pub"), ...row })
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(isUniqueViolation(second)).toBe(true);

    await db.update(publications).set({ status: "canceled" }).where(eq(publications.id, first));
    expect((await findNextSlot(channel, db, now)).at?.toISOString()).toBe("2027-03-28T07:00:00.000Z");
    await db.insert(publications).values({ id: newId("pub"), ...row });
  });

  it("answers no_slots for a channel without a schedule", async () => {
    const target = await newChannel(BERLIN);
    const db = await getDb();
    const channel = { id: target.channelId, brandId: target.brandId };
    expect(await findNextSlot(channel, db, NOW)).toEqual({ at: null, reason: "no_slots" });
  });
});
