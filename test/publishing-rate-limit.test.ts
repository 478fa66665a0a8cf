import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newUser } from "./support/auth";
import { type FakeTelegram, startFakeTelegram } from "./support/fake-telegram";
import { api } from "./support/http";
import { startTestServer, type TestServer } from "./support/test-server";
import { waitFor } from "./support/video-media";

// A channel Telegram rate limits (429 with retry_after) holds back its own publications and nothing else:
// the publications waiting for it make no call until its retry_after has passed, and another channel's
// publication goes out meanwhile. Runs on both databases (the server's inline worker).

let telegram: FakeTelegram;
let server: TestServer;
let token: string;

const call = (p: string, init: Parameters<typeof api>[1] = {}) =>
  api(p, { server: server.url, token, ...init });

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON.
async function publication(id: string): Promise<any> {
  return (await call(`/api/publications/${id}`)).body;
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
  ({ token } = await newUser(server.url));
  const brand = await call("/api/brands", {
    method: "POST",
    json: { name: "Limited Brand", tone: "warm", voice: "short" },
  });
  brandId = brand.body.brandId as string;
  bot = telegram.addBot("limited_bot");
});

afterAll(async () => {
  await server?.stop();
  await telegram?.close();
});

let brandId: string;
let bot: string;

async function channelOf(chat: number) {
  const connected = await call("/api/channels", {
    method: "POST",
    json: { brandId, channel: "telegram", botToken: bot, chatId: String(chat) },
  });
  expect(connected.status, connected.text).toBe(201);
  return connected.body.channelId as string;
}

async function newPost(caption: string) {
  const created = await call("/api/content/create", {
    method: "POST",
    json: { brandId, channel: "telegram", goal: "announcement", topic: "The new roast arrives on Monday" },
  });
  expect(created.status, created.text).toBe(201);
  const patched = await call(`/api/posts/${created.body.postId}`, {
    method: "PATCH",
    json: { caption, hashtags: [], mediaPlan: { format: "text_only", items: [] } },
  });
  expect(patched.status, patched.text).toBe(200);
  return created.body.postId as string;
}

async function publish(postId: string, channelId: string, publishAt?: Date) {
  const response = await call(`/api/posts/${postId}/publications`, {
    method: "POST",
    json: { channelId, ...(publishAt ? { publishAt: publishAt.toISOString() } : {}) },
  });
  expect(response.status, response.text).toBe(202);
  return response.body.publicationId as string;
}

const sendsTo = (chat: number) => telegram.calls.filter((c) => c.chatId === chat);

/** Waits for every one of `ids` to be published. */
async function allPublished(ids: string[], what: string, timeoutMs = 60_000) {
  await waitFor(
    async () => {
      for (const id of ids) if ((await publication(id)).status !== "published") return false;
      return true;
    },
    { what, timeoutMs },
  );
}

describe("a rate-limited channel", () => {
  it("waits out its retry_after without calling again, while another channel's publication goes out", async () => {
    const limitedChat = telegram.addChannel({ title: "Busy channel", admins: [{ token: bot }] });
    const freeChat = telegram.addChannel({ title: "Quiet channel", admins: [{ token: bot }] });
    const limitedChannel = await channelOf(limitedChat);
    const freeChannel = await channelOf(freeChat);

    // Telegram limits the busy channel for a minute: the first run there gets a 429 and schedules its retry.
    telegram.behavior.limitedChats = { [String(limitedChat)]: 60 };
    const first = await publish(await newPost("Busy one"), limitedChannel);
    const retrying = await waitFor(
      async () => {
        const p = await publication(first);
        return p.status === "scheduled" && p.nextAttemptAt ? p : null;
      },
      { what: "the first publication on the busy channel to be rate limited" },
    );
    expect(retrying.attempts).toBe(1);
    expect(sendsTo(limitedChat).map((c) => c.status)).toEqual([429]);

    // Two more for the busy channel, due now: they wait for the channel without calling it.
    const waiting = [await publish(await newPost("Busy two"), limitedChannel)];
    waiting.push(await publish(await newPost("Busy three"), limitedChannel));
    for (const id of waiting) {
      const postponed = await waitFor(
        async () => {
          const p = await publication(id);
          return p.status === "scheduled" && p.nextAttemptAt ? p : null;
        },
        { what: `publication ${id} to wait for the busy channel` },
      );
      expect(postponed.attempts).toBe(0);
      expect(Date.parse(postponed.nextAttemptAt)).toBeGreaterThanOrEqual(
        Date.parse(retrying.nextAttemptAt) - 1000,
      );
    }
    expect(sendsTo(limitedChat).map((c) => c.status)).toEqual([429]);

    // The quiet channel is not held behind it.
    const free = await publish(await newPost("Quiet one"), freeChannel);
    const published = await waitFor(
      async () => {
        const p = await publication(free);
        return p.status === "published" ? p : null;
      },
      { what: "the quiet channel's publication" },
    );
    expect(published.attempts).toBe(1);
    expect(telegram.messages.filter((m) => m.chatId === freeChat).map((m) => m.text)).toEqual(["Quiet one"]);
    for (const id of [first, ...waiting]) expect((await publication(id)).status).toBe("scheduled");
    expect(telegram.messages.filter((m) => m.chatId === limitedChat)).toHaveLength(0);
    expect(sendsTo(limitedChat)).toHaveLength(1);
  });

  it("sends to several channels at once, each channel one send at a time and in order", async () => {
    // Six channels, three posts each, all due at the same instant; every send takes 300 ms at Telegram.
    telegram.behavior.sendLatencyMs = 300;
    try {
      const chats = Array.from({ length: 6 }, (_, i) =>
        telegram.addChannel({ title: `Side ${i}`, admins: [{ token: bot }] }),
      );
      const channels = await Promise.all(chats.map(channelOf));
      const posts: string[] = [];
      for (let n = 1; n <= 3; n++) posts.push(await newPost(`Side by side ${n}`));
      const due = new Date(Date.now() + 8000);
      const ids: string[] = [];
      for (const channelId of channels)
        for (const postId of posts) ids.push(await publish(postId, channelId, due));
      expect(Date.now()).toBeLessThan(due.getTime());
      await allPublished(ids, "the 18 publications");
      const sends = chats.flatMap(sendsTo);
      expect(sends.map((c) => c.status)).toEqual(sends.map(() => 200));
      // At the fake: sends to different chats overlapped (one worker process, several channels at once) …
      const mostAtOnce = Math.max(
        ...sends.map((c) => sends.filter((o) => o.at <= c.at && o.endedAt > c.at).length),
      );
      expect(mostAtOnce).toBeGreaterThanOrEqual(4);
      // … while each chat's were one after the other, in the order they were scheduled.
      for (const chat of chats) {
        const own = sendsTo(chat).sort((x, y) => x.at - y.at);
        expect(own).toHaveLength(3);
        for (let i = 1; i < own.length; i++) expect(own[i].at).toBeGreaterThanOrEqual(own[i - 1].endedAt);
        expect(telegram.messages.filter((m) => m.chatId === chat).map((m) => m.text)).toEqual([
          "Side by side 1",
          "Side by side 2",
          "Side by side 3",
        ]);
      }
    } finally {
      telegram.behavior.sendLatencyMs = 0;
    }
  });

  it("learns a chat's pace from its first 429 and sends the rest of a backlog without another", async () => {
    // Telegram takes 3 sends a chat per 2 s; seven posts due at once in one channel.
    telegram.behavior.chatLimit = { messages: 3, perSeconds: 2 };
    try {
      const chat = telegram.addChannel({ title: "Paced", admins: [{ token: bot }] });
      const channelId = await channelOf(chat);
      const due = new Date(Date.now() + 8000);
      const ids: string[] = [];
      for (let n = 1; n <= 7; n++) ids.push(await publish(await newPost(`Paced ${n}`), channelId, due));
      await allPublished(ids, "the seven paced publications");
      expect(telegram.messages.filter((m) => m.chatId === chat).map((m) => m.text)).toEqual(
        [1, 2, 3, 4, 5, 6, 7].map((n) => `Paced ${n}`),
      );
      // The fourth send met the limit; after it, the worker kept to 3 per window by itself.
      expect(sendsTo(chat).map((c) => c.status)).toEqual([200, 200, 200, 429, 200, 200, 200, 200]);
      const attempts = await Promise.all(ids.map(async (id) => (await publication(id)).attempts));
      expect(attempts).toEqual([1, 1, 1, 2, 1, 1, 1]);
    } finally {
      telegram.behavior.chatLimit = null;
    }
  });
});
