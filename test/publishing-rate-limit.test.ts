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
});

afterAll(async () => {
  await server?.stop();
  await telegram?.close();
});

describe("a rate-limited channel", () => {
  it("waits out its retry_after without calling again, while another channel's publication goes out", async () => {
    const brand = await call("/api/brands", {
      method: "POST",
      json: { name: "Limited Brand", tone: "warm", voice: "short" },
    });
    const brandId = brand.body.brandId as string;
    const bot = telegram.addBot("limited_bot");
    const limitedChat = telegram.addChannel({ title: "Busy channel", admins: [{ token: bot }] });
    const freeChat = telegram.addChannel({ title: "Quiet channel", admins: [{ token: bot }] });
    const channelOf = async (chat: number) => {
      const connected = await call("/api/channels", {
        method: "POST",
        json: { brandId, channel: "telegram", botToken: bot, chatId: String(chat) },
      });
      expect(connected.status, connected.text).toBe(201);
      return connected.body.channelId as string;
    };
    const limitedChannel = await channelOf(limitedChat);
    const freeChannel = await channelOf(freeChat);
    const newPost = async (caption: string) => {
      const created = await call("/api/content/create", {
        method: "POST",
        json: {
          brandId,
          channel: "telegram",
          goal: "announcement",
          topic: "The new roast arrives on Monday",
        },
      });
      expect(created.status, created.text).toBe(201);
      const patched = await call(`/api/posts/${created.body.postId}`, {
        method: "PATCH",
        json: { caption, hashtags: [], mediaPlan: { format: "text_only", items: [] } },
      });
      expect(patched.status, patched.text).toBe(200);
      return created.body.postId as string;
    };
    const publish = async (postId: string, channelId: string) => {
      const response = await call(`/api/posts/${postId}/publications`, {
        method: "POST",
        json: { channelId },
      });
      expect(response.status, response.text).toBe(202);
      return response.body.publicationId as string;
    };
    const sendsTo = (chat: number) => telegram.calls.filter((c) => c.chatId === chat);

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
});
