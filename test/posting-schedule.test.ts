import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { zonedParts } from "@/lib/contracts/time-zone";
import { newUser } from "./support/auth";
import { type FakeTelegram, startFakeTelegram } from "./support/fake-telegram";
import { api } from "./support/http";
import { startTestServer, type TestServer } from "./support/test-server";

// A channel's posting schedule and Add to queue (`slot: "next"`) over HTTP, against the real server and its
// queue, with a fake Telegram behind the channel. Nothing here is due soon: every slot is days ahead.

const ZONE = "Europe/Berlin";
let telegram: FakeTelegram;
let server: TestServer;
let token: string;
let brandId: string;
let channelId: string;
type Init = Parameters<typeof api>[1];
const call = (path: string, init: Init = {}) => api(path, { server: server.url, token, ...init });

async function newPost() {
  const created = await call("/api/content/create", {
    method: "POST",
    json: { brandId, channel: "telegram", goal: "announcement", topic: "Our autumn blend arrives next week" },
  });
  expect(created.status, created.text).toBe(201);
  return created.body.postId as string;
}

const queue = async (postId: string) =>
  call(`/api/posts/${postId}/publications`, { method: "POST", json: { channelId, slot: "next" } });
/** The post's publications from yesterday to a month ahead (the list's default window ends now). */
const publicationsOf = async (postId: string) => {
  const from = new Date(Date.now() - 86_400_000).toISOString();
  const to = new Date(Date.now() + 30 * 86_400_000).toISOString();
  const listed = await call(`/api/publications?brandId=${brandId}&postId=${postId}&from=${from}&to=${to}`);
  expect(listed.status, listed.text).toBe(200);
  return listed.body.items;
};
const schedule = () => call(`/api/channels/${channelId}/schedule`);
const setSlots = (slots: unknown) =>
  call(`/api/channels/${channelId}/schedule`, { method: "PATCH", json: { slots } });

/** Wall-clock weekday (ISO) and HH:MM of an instant in the brand's zone. */
function wall(iso: string) {
  const { year, month, day, hour, minute } = zonedParts(new Date(iso), ZONE);
  const weekday = ((new Date(Date.UTC(year, month - 1, day)).getUTCDay() + 6) % 7) + 1;
  return `${weekday} ${String(hour).padStart(2, "0")}:${String(minute).padStart(2, "0")}`;
}

beforeAll(async () => {
  telegram = await startFakeTelegram();
  server = await startTestServer({
    env: { TELEGRAM_API_BASE_URL: telegram.url, PUBLISH_TIMEOUT_MS: "4000" },
  });
  ({ token } = await newUser(server.url));
  const brand = await call("/api/brands", {
    method: "POST",
    json: { name: "Queue Brand", tone: "warm", voice: "short sentences", timeZone: ZONE },
  });
  expect(brand.status, brand.text).toBe(201);
  brandId = brand.body.brandId;
  const bot = telegram.addBot("queue_bot");
  const chat = telegram.addChannel({ title: "Queue", admins: [{ token: bot }] });
  const connected = await call("/api/channels", {
    method: "POST",
    json: { brandId, channel: "telegram", botToken: bot, chatId: String(chat) },
  });
  expect(connected.status, connected.text).toBe(201);
  channelId = connected.body.channelId;
});

afterAll(async () => {
  await server?.stop();
  await telegram?.close();
});

describe("a channel's posting schedule", () => {
  it("starts empty, with the platform's default best times labelled as such", async () => {
    const read = await schedule();
    expect(read.status, read.text).toBe(200);
    expect(read.body).toMatchObject({ channelId, timeZone: ZONE, slots: [], nextSlot: null });
    expect(read.body.bestTimes).toMatchObject({
      source: "platform_defaults",
      measuredPosts: 0,
      timeZone: ZONE,
    });
    expect(read.body.bestTimes.times.length).toBeGreaterThan(0);
  });

  it("refuses Add to queue without slots with 409 no_free_slot, and saves nothing", async () => {
    const postId = await newPost();
    const refused = await queue(postId);
    expect(refused.status, refused.text).toBe(409);
    expect(refused.body.error).toMatchObject({
      code: "no_free_slot",
      retryable: false,
      details: { reason: "no_slots" },
    });
    expect(refused.body.error.message).toMatch(/no posting schedule/);
    expect(await publicationsOf(postId)).toEqual([]);
  });

  it("refuses a malformed schedule naming the slot, and both slot and publishAt", async () => {
    for (const [slots, path] of [
      [[{ weekday: 8, time: "09:00" }], ["slots", 0, "weekday"]],
      [[{ weekday: 1, time: "9:00" }], ["slots", 0, "time"]],
      [
        [
          { weekday: 1, time: "09:00" },
          { weekday: 1, time: "09:00" },
        ],
        ["slots", 1],
      ],
    ] as const) {
      const response = await setSlots(slots);
      expect(response.status, response.text).toBe(400);
      expect(response.body.error.code).toBe("invalid_request");
      expect(response.body.error.details[0].path).toEqual(path.join("."));
    }
    const both = await call(`/api/posts/${await newPost()}/publications`, {
      method: "POST",
      json: { channelId, slot: "next", publishAt: new Date(Date.now() + 86_400_000).toISOString() },
    });
    expect(both.status, both.text).toBe(400);
    expect((await schedule()).body.slots).toEqual([]);
  });

  it("is replaced whole and read back Monday first", async () => {
    const saved = await setSlots([
      { weekday: 4, time: "17:30" },
      { weekday: 2, time: "09:00" },
    ]);
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body.slots).toEqual([
      { weekday: 2, time: "09:00" },
      { weekday: 4, time: "17:30" },
    ]);
    expect(wall(saved.body.nextSlot)).toMatch(/^(2 09:00|4 17:30)$/);
    expect((await schedule()).body.slots).toEqual(saved.body.slots);
  });
});

describe("Add to queue", () => {
  it("two concurrent calls take two different slots, the next two in the brand's zone", async () => {
    const [first, second] = [await newPost(), await newPost()];
    const expectedFirst = (await schedule()).body.nextSlot as string;
    const answers = await Promise.all([queue(first), queue(second)]);
    for (const answer of answers) expect(answer.status, answer.text).toBe(202);
    const times = answers.map((answer) => answer.body.publishAt as string).sort();
    expect(new Set(times).size).toBe(2);
    expect(times[0]).toBe(new Date(expectedFirst).toISOString());
    for (const at of times) expect(wall(at)).toMatch(/^(2 09:00|4 17:30)$/);
    // The second is the slot after the first: nothing lies between them.
    const between = (await schedule()).body.nextSlot as string;
    expect(Date.parse(between)).toBeGreaterThan(Date.parse(times[1]));

    expect(await publicationsOf(first)).toMatchObject([
      { status: "scheduled", channelId, publishAt: answers[0].body.publishAt },
    ]);
  });

  it("a canceled or moved publication frees its slot for the next one", async () => {
    const postId = await newPost();
    const before = (await schedule()).body.nextSlot as string;
    const taken = await queue(postId);
    expect(taken.body.publishAt).toBe(new Date(before).toISOString());
    expect((await schedule()).body.nextSlot).not.toBe(taken.body.publishAt);

    const canceled = await call(`/api/publications/${taken.body.publicationId}`, { method: "DELETE" });
    expect(canceled.status, canceled.text).toBe(200);
    expect((await schedule()).body.nextSlot).toBe(taken.body.publishAt);

    const again = await queue(await newPost());
    expect(again.body.publishAt).toBe(taken.body.publishAt);
    const moved = await call(`/api/publications/${again.body.publicationId}`, {
      method: "PATCH",
      json: { publishAt: new Date(Date.parse(again.body.publishAt) + 3_600_000).toISOString() },
    });
    expect(moved.status, moved.text).toBe(200);
    expect((await schedule()).body.nextSlot).toBe(taken.body.publishAt);
    // A post scheduled by hand at a slot's time holds it too.
    const byHand = await call(`/api/posts/${await newPost()}/publications`, {
      method: "POST",
      json: { channelId, publishAt: taken.body.publishAt },
    });
    expect(byHand.status, byHand.text).toBe(202);
    expect((await schedule()).body.nextSlot).not.toBe(taken.body.publishAt);
  });

  it("is refused on another user's channel with 404, and the schedule is theirs to read and change", async () => {
    const stranger = await newUser(server.url);
    const read = await api(`/api/channels/${channelId}/schedule`, {
      server: server.url,
      token: stranger.token,
    });
    expect(read.status).toBe(404);
    const change = await api(`/api/channels/${channelId}/schedule`, {
      server: server.url,
      token: stranger.token,
      method: "PATCH",
      json: { slots: [] },
    });
    expect(change.status).toBe(404);
    expect((await schedule()).body.slots).toHaveLength(2);
  });
});
