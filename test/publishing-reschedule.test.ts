import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newUser } from "./support/auth";
import { type FakeTelegram, startFakeTelegram } from "./support/fake-telegram";
import { api } from "./support/http";
import { startTestServer, type TestServer } from "./support/test-server";
import { waitFor } from "./support/video-media";

// Rescheduling publications (PATCH /api/publications/{id}) and the brand's time zone, against the real
// server, its queue and a fake Telegram Bot API that records every message it was sent.

let telegram: FakeTelegram;
let server: TestServer;
let owner: { token: string; email: string };
let brandId: string;
let channelId: string;
let chatId: number;

type Call = Parameters<typeof api>[1];
const as =
  (token: string) =>
  (p: string, init: Call = {}) =>
    api(p, { server: server.url, token, ...init });
const call = (p: string, init: Call = {}) => as(owner.token)(p, init);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const inSeconds = (seconds: number) => new Date(Date.now() + seconds * 1000);

async function newPost(caption: string) {
  const created = await call("/api/content/create", {
    method: "POST",
    json: { brandId, channel: "telegram", goal: "announcement", topic: "Our autumn blend arrives next week" },
  });
  expect(created.status, created.text).toBe(201);
  const postId = created.body.postId as string;
  const patched = await call(`/api/posts/${postId}`, {
    method: "PATCH",
    json: { caption, hashtags: [], mediaPlan: { format: "text_only", items: [] } },
  });
  expect(patched.status, patched.text).toBe(200);
  return postId;
}

async function schedule(caption: string, at: Date) {
  const postId = await newPost(caption);
  const response = await call(`/api/posts/${postId}/publications`, {
    method: "POST",
    json: { channelId, publishAt: at.toISOString() },
  });
  expect(response.status, response.text).toBe(202);
  return { postId, publicationId: response.body.publicationId as string };
}

const reschedule = (publicationId: string, publishAt: string | Date, token = owner.token) =>
  as(token)(`/api/publications/${publicationId}`, {
    method: "PATCH",
    json: { publishAt: typeof publishAt === "string" ? publishAt : publishAt.toISOString() },
  });

async function waitForFinal(publicationId: string, timeoutMs = 40_000) {
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON.
  let last: any = {};
  await waitFor(
    async () => {
      last = (await call(`/api/publications/${publicationId}`)).body;
      return ["published", "failed", "canceled"].includes(last.status);
    },
    { timeoutMs, what: `publication ${publicationId}` },
  );
  return last;
}

const sentWith = (caption: string) => telegram.messages.filter((message) => message.text === caption);

/** Invites a new user with `role` to the brand and accepts as them. */
async function member(role: "viewer" | "editor") {
  const user = await newUser(server.url);
  const invited = await call(`/api/brands/${brandId}/invitations`, {
    method: "POST",
    json: { email: user.email, role },
  });
  expect(invited.status, invited.text).toBe(201);
  const token = (invited.body.link as string).split("/invite/")[1];
  const accepted = await as(user.token)(`/api/invitations/${token}/accept`, { method: "POST", json: {} });
  expect(accepted.status, accepted.text).toBe(200);
  return user;
}

beforeAll(async () => {
  telegram = await startFakeTelegram();
  server = await startTestServer({
    env: {
      TELEGRAM_API_BASE_URL: telegram.url,
      PUBLISH_SWEEP_INTERVAL_SECONDS: "2",
      PUBLISH_TIMEOUT_MS: "4000",
    },
  });
  owner = await newUser(server.url);
  const brand = await call("/api/brands", {
    method: "POST",
    json: { name: "Reschedule Brand", tone: "warm", voice: "short sentences", timeZone: "Europe/Berlin" },
  });
  expect(brand.status, brand.text).toBe(201);
  brandId = brand.body.brandId;
  const botToken = telegram.addBot("reschedule_bot");
  chatId = telegram.addChannel({ title: "Moves", username: "moves_news", admins: [{ token: botToken }] });
  const connected = await call("/api/channels", {
    method: "POST",
    json: { brandId, channel: "telegram", botToken, chatId: String(chatId) },
  });
  expect(connected.status, connected.text).toBe(201);
  channelId = connected.body.channelId;
});

afterAll(async () => {
  await server?.stop();
  await telegram?.close();
});

describe("the brand's time zone", () => {
  it("is stored, canonicalised and read back; UTC by default", async () => {
    const created = await call(`/api/brands/${brandId}`);
    expect(created.body.timeZone).toBe("Europe/Berlin");
    const plain = await call("/api/brands", { method: "POST", json: { name: "Zoneless" } });
    expect(plain.status, plain.text).toBe(201);
    expect(plain.body.timeZone).toBe("UTC");
    const patched = await call(`/api/brands/${plain.body.brandId}`, {
      method: "PATCH",
      json: { timeZone: "america/new_york" },
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.timeZone).toBe("America/New_York");
    expect((await call(`/api/brands/${plain.body.brandId}`)).body.timeZone).toBe("America/New_York");
    const listed = (await call("/api/brands")).body.items.find(
      (brand: { brandId: string }) => brand.brandId === plain.body.brandId,
    );
    expect(listed.timeZone).toBe("America/New_York");
  });

  it("refuses what is not an IANA zone with 400 naming the field, and changes nothing", async () => {
    for (const timeZone of ["Mars/Olympus_Mons", "+01:00", "GMT+1", "", "Europe/Berlin; drop table", 42]) {
      const response = await call(`/api/brands/${brandId}`, { method: "PATCH", json: { timeZone } });
      expect(response.status, `${timeZone}: ${response.text}`).toBe(400);
      expect(response.body.error.code).toBe("invalid_request");
      expect(response.body.error.details).toEqual(
        expect.arrayContaining([expect.objectContaining({ path: "timeZone" })]),
      );
    }
    const bad = await call("/api/brands", {
      method: "POST",
      json: { name: "Bad zone", timeZone: "Nowhere" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].message).toMatch(/IANA name such as Europe\/Berlin/);
    expect((await call(`/api/brands/${brandId}`)).body.timeZone).toBe("Europe/Berlin");
  });
});

describe("rescheduling a publication", () => {
  it("moves it later: nothing is sent at the old time, it publishes once at the new time", async () => {
    const caption = "Moved later, sent once.";
    const { publicationId, postId } = await schedule(caption, inSeconds(3));
    const newAt = inSeconds(12);
    const moved = await reschedule(publicationId, newAt);
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body).toMatchObject({ publicationId, status: "scheduled", publishAt: newAt.toISOString() });
    expect((await call(`/api/publications/${publicationId}`)).body.publishAt).toBe(newAt.toISOString());
    expect((await call(`/api/posts/${postId}`)).body.status).toBe("scheduled");
    // The job queued for the old time has run by now (the queue polls every second); it did nothing.
    await sleep(7000);
    expect((await call(`/api/publications/${publicationId}`)).body.status).toBe("scheduled");
    expect(sentWith(caption)).toHaveLength(0);
    const done = await waitForFinal(publicationId);
    expect(done.status).toBe("published");
    expect(Date.parse(done.startedAt)).toBeGreaterThanOrEqual(newAt.getTime() - 2000);
    expect(sentWith(caption)).toHaveLength(1);
    expect(sentWith(caption)[0].at).toBeGreaterThanOrEqual(newAt.getTime() - 2000);
  });

  it("moves it earlier: it publishes at the new time, and the old time's job later finds it done", async () => {
    const caption = "Moved earlier, sent once.";
    const { publicationId } = await schedule(caption, inSeconds(3600));
    const newAt = inSeconds(3);
    const moved = await reschedule(publicationId, newAt);
    expect(moved.status, moved.text).toBe(200);
    const done = await waitForFinal(publicationId);
    expect(done.status).toBe("published");
    expect(Date.parse(done.startedAt)).toBeGreaterThanOrEqual(newAt.getTime() - 2000);
    expect(sentWith(caption)).toHaveLength(1);
  });

  it("races a worker at the old time: each is either moved (and runs only at the new time) or 409, sent once", async () => {
    const oldAt = inSeconds(4);
    const items = await Promise.all(
      Array.from({ length: 6 }, (_, index) => schedule(`Race ${index} at the old time.`, oldAt)),
    );
    // Aim at the moment the old jobs become due, spread over ±1.5 s.
    await sleep(Math.max(0, oldAt.getTime() - Date.now() - 1500));
    const newAt = inSeconds(14);
    const answers = [];
    for (const item of items) {
      answers.push(await reschedule(item.publicationId, newAt));
      await sleep(500);
    }
    const outcomes = { moved: 0, refused: 0 };
    for (const [index, item] of items.entries()) {
      const answer = answers[index];
      const done = await waitForFinal(item.publicationId);
      expect(done.status).toBe("published");
      expect(sentWith(`Race ${index} at the old time.`)).toHaveLength(1);
      if (answer.status === 200) {
        outcomes.moved++;
        expect(Date.parse(done.startedAt)).toBeGreaterThanOrEqual(newAt.getTime() - 2000);
      } else {
        outcomes.refused++;
        expect(answer.status, answer.text).toBe(409);
        expect(answer.body.error.code).toBe("publication_not_reschedulable");
        expect(["publishing", "published"]).toContain(answer.body.error.details.status);
        expect(Date.parse(done.startedAt)).toBeLessThan(newAt.getTime() - 2000);
      }
    }
    expect(outcomes.moved + outcomes.refused).toBe(items.length);
    // The first move is sent 1.5 s before the old time, before any worker may take it.
    expect(outcomes.moved).toBeGreaterThanOrEqual(1);
  });

  it("refuses one that is not scheduled any more: 409 with its status", async () => {
    const caption = "Published before the move.";
    const postId = await newPost(caption);
    const now = await call(`/api/posts/${postId}/publications`, { method: "POST", json: { channelId } });
    const published = await waitForFinal(now.body.publicationId);
    expect(published.status).toBe("published");
    const refused = await reschedule(published.publicationId, inSeconds(3600));
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({
      code: "publication_not_reschedulable",
      details: { status: "published" },
    });

    const { publicationId } = await schedule("Canceled before the move.", inSeconds(3600));
    expect((await call(`/api/publications/${publicationId}`, { method: "DELETE" })).status).toBe(200);
    const canceled = await reschedule(publicationId, inSeconds(7200));
    expect(canceled.status).toBe(409);
    expect(canceled.body.error.details).toEqual({ status: "canceled" });
    expect((await call(`/api/publications/${publicationId}`)).body.status).toBe("canceled");
    expect(sentWith("Canceled before the move.")).toHaveLength(0);
  });

  it("refuses a time in the past, too far ahead or malformed with 400, and keeps the old time", async () => {
    const at = inSeconds(3600);
    const { publicationId } = await schedule("Bad times.", at);
    for (const publishAt of [
      new Date(Date.now() - 60_000).toISOString(),
      new Date(Date.now() + 400 * 86_400_000).toISOString(),
      "tomorrow at nine",
      "2026-13-01T09:00:00Z",
    ]) {
      const response = await reschedule(publicationId, publishAt);
      expect(response.status, `${publishAt}: ${response.text}`).toBe(400);
      expect(response.body.error.code).toBe("invalid_request");
      expect(response.body.error.details[0].path).toBe("publishAt");
    }
    const empty = await call(`/api/publications/${publicationId}`, { method: "PATCH", json: {} });
    expect(empty.status).toBe(400);
    const extra = await call(`/api/publications/${publicationId}`, {
      method: "PATCH",
      json: { publishAt: inSeconds(7200).toISOString(), status: "published" },
    });
    expect(extra.status).toBe(400);
    // Create has the same upper bound.
    const farPost = await newPost("Too far to schedule.");
    const far = await call(`/api/posts/${farPost}/publications`, {
      method: "POST",
      json: { channelId, publishAt: new Date(Date.now() + 400 * 86_400_000).toISOString() },
    });
    expect(far.status).toBe(400);
    expect((await call(`/api/publications/${publicationId}`)).body.publishAt).toBe(at.toISOString());
  });

  it("checks the channel's rules again: a post edited past the limit cannot be moved (422), nothing sent", async () => {
    const at = inSeconds(3600);
    const { publicationId, postId } = await schedule("Short for now.", at);
    const edited = await call(`/api/posts/${postId}`, {
      method: "PATCH",
      json: { caption: "z".repeat(4096), hashtags: ["#late"] },
    });
    expect(edited.status, edited.text).toBe(200);
    const refused = await reschedule(publicationId, inSeconds(7200));
    expect(refused.status, refused.text).toBe(422);
    expect(refused.body.error).toMatchObject({
      code: "publish_rule_violation",
      details: { channel: "telegram", rule: "caption_length" },
    });
    expect((await call(`/api/publications/${publicationId}`)).body.publishAt).toBe(at.toISOString());
  });

  it("answers 404 to a non-member, 403 to a viewer and an editor, 401 without a token", async () => {
    const at = inSeconds(3600);
    const { publicationId } = await schedule("Not yours to move.", at);
    const stranger = await newUser(server.url);
    const foreign = await reschedule(publicationId, inSeconds(7200), stranger.token);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe("not_found");
    for (const role of ["viewer", "editor"] as const) {
      const user = await member(role);
      const refused = await reschedule(publicationId, inSeconds(7200), user.token);
      expect(refused.status, refused.text).toBe(403);
      expect(refused.body.error).toMatchObject({
        code: "forbidden",
        details: { role, required: "owner" },
      });
    }
    const anonymous = await api(`/api/publications/${publicationId}`, {
      server: server.url,
      method: "PATCH",
      json: { publishAt: inSeconds(7200).toISOString() },
    });
    expect(anonymous.status).toBe(401);
    expect((await call(`/api/publications/${publicationId}`)).body.publishAt).toBe(at.toISOString());
  });
});
