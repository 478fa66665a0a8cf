import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newUser } from "./support/auth";
import { type FakeTelegram, startFakeTelegram } from "./support/fake-telegram";
import { api } from "./support/http";
import { settledPublication } from "./support/publication-api";
import { freePort, startTestServer, type TestServer } from "./support/test-server";
import { waitFor } from "./support/video-media";

// A server whose Telegram updates come through a webhook: TELEGRAM_WEBHOOK_BASE_URL points the fake
// Telegram at this server (APP_URL is 127.0.0.1, which alone would make the app poll getUpdates).
let telegram: FakeTelegram;
let server: TestServer;
let token: string;
let bot: string;
let chat: number;
let channelId: string;
let postId: string;
let messageId: number;
const call = (path: string, init: Parameters<typeof api>[1] = {}) =>
  api(path, { server: server.url, token, ...init });
const hookPath = () => `/api/webhooks/telegram/${channelId}`;
const reactionsOf = async () => {
  const response = await call(`/api/posts/${postId}/metrics`);
  expect(response.status, response.text).toBe(200);
  return response.body.publications[0].metrics.find(
    (metric: { name: string }) => metric.name === "reactions",
  );
};
const reactionUpdate = (count: number) => ({
  update_id: 1,
  message_reaction_count: {
    chat: { id: chat, type: "channel", title: "Webhook results" },
    message_id: messageId,
    date: Math.floor(Date.now() / 1000),
    reactions: [{ type: { type: "emoji", emoji: "👍" }, total_count: count }],
  },
});

beforeAll(async () => {
  telegram = await startFakeTelegram();
  const port = await freePort();
  server = await startTestServer({
    port,
    env: {
      TELEGRAM_API_BASE_URL: telegram.url,
      TELEGRAM_WEBHOOK_BASE_URL: `http://127.0.0.1:${port}`,
      PUBLISH_TIMEOUT_MS: "4000",
    },
  });
  ({ token } = await newUser(server.url));
  const brand = await call("/api/brands", {
    method: "POST",
    json: { name: "Webhook Brand", tone: "warm", voice: "short sentences" },
  });
  bot = telegram.addBot("webhook_results_bot");
  chat = telegram.addChannel({ title: "Webhook results", admins: [{ token: bot }] });
  const connected = await call("/api/channels", {
    method: "POST",
    json: { brandId: brand.body.brandId, channel: "telegram", botToken: bot, chatId: String(chat) },
  });
  expect(connected.status, connected.text).toBe(201);
  channelId = connected.body.channelId;
  const post = await call("/api/content/create", {
    method: "POST",
    json: {
      brandId: brand.body.brandId,
      channel: "telegram",
      goal: "announcement",
      topic: "Our reactions now arrive through a webhook",
    },
  });
  expect(post.status, post.text).toBe(201);
  postId = post.body.postId;
});

afterAll(async () => {
  await server?.stop();
  await telegram?.close();
});

describe("Telegram reaction counts through a webhook", () => {
  it("connecting sets the bot's webhook to the connection's path with a secret, asking for reaction counts", async () => {
    const webhook = telegram.webhookOf(bot);
    expect(webhook?.url).toBe(`${server.url}${hookPath()}`);
    expect(webhook?.secret).toMatch(/^[A-Za-z0-9_-]{32,256}$/);
    const info = await fetch(`${telegram.url}/bot${bot}/getWebhookInfo`, { method: "POST" });
    expect((await info.json()).result).toMatchObject({
      url: webhook?.url,
      allowed_updates: ["message_reaction_count"],
    });
  });

  it("records the updates Telegram POSTs as the post's reactions; a pull then reads no getUpdates", async () => {
    const created = await call(`/api/posts/${postId}/publications`, { method: "POST", json: { channelId } });
    expect(created.status, created.text).toBe(202);
    const publication = await settledPublication(call, created.body.publicationId);
    expect(publication.status).toBe("published");
    messageId = Number(telegram.messages.at(-1)?.messageId);

    telegram.insights.advance(2);
    await waitFor(() => telegram.webhookDeliveries.length > 0, { what: "the fake's webhook delivery" });
    expect(telegram.webhookDeliveries).toEqual([
      expect.objectContaining({ url: `${server.url}${hookPath()}`, status: 200 }),
    ]);
    // 👍 and 🔥 of the fake's growth model after two steps: (9 + 2) × 2.
    expect(await reactionsOf()).toMatchObject({ value: 22, state: "measured" });

    // A pull of a webhook channel keeps the stored count and never calls getUpdates (Telegram would answer 409).
    const refreshed = await call(`/api/posts/${postId}/metrics/refresh`, { method: "POST", json: {} });
    expect(refreshed.status, refreshed.text).toBe(202);
    const pulled = await waitFor(
      async () => (await call(`/api/posts/${postId}/metrics`)).body.publications[0]?.pulledAt,
      { what: "the refresh's pull" },
    );
    expect(pulled).toBeTruthy();
    expect(await reactionsOf()).toMatchObject({ value: 22, state: "measured" });
    expect(telegram.calls.filter((c) => c.method === "getUpdates")).toEqual([]);
  });

  it("refuses a wrong or missing secret (401, nothing recorded) and an unknown channel (404)", async () => {
    const forged = JSON.stringify(reactionUpdate(999));
    const wrong: Record<string, string>[] = [
      { "X-Telegram-Bot-Api-Secret-Token": "not-the-secret" },
      { "X-Telegram-Bot-Api-Secret-Token": `${telegram.webhookOf(bot)?.secret}x` },
      {},
    ];
    for (const headers of wrong) {
      const refused = await fetch(`${server.url}${hookPath()}`, {
        method: "POST",
        headers: { "Content-Type": "application/json", ...headers },
        body: forged,
      });
      expect(refused.status).toBe(401);
      expect((await refused.json()).error.code).toBe("unauthorized");
    }
    expect(await reactionsOf()).toMatchObject({ value: 22 });

    const unknown = await fetch(`${server.url}/api/webhooks/telegram/chn_unknown`, {
      method: "POST",
      headers: { "X-Telegram-Bot-Api-Secret-Token": "x" },
      body: forged,
    });
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).error.code).toBe("not_found");
  });

  it("with the right secret: a later count is kept, another chat's and a bad body are not", async () => {
    const post = (body: string) =>
      fetch(`${server.url}${hookPath()}`, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          "X-Telegram-Bot-Api-Secret-Token": telegram.webhookOf(bot)?.secret ?? "",
        },
        body,
      });
    const elsewhere = reactionUpdate(500);
    elsewhere.message_reaction_count.chat.id = chat - 1;
    const ignored = await post(JSON.stringify(elsewhere));
    expect(ignored.status).toBe(200);
    expect(await ignored.json()).toEqual({ received: true, recorded: 0 });
    const bad = await post("not json");
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.code).toBe("invalid_request");
    expect(await reactionsOf()).toMatchObject({ value: 22 });

    const kept = await post(JSON.stringify(reactionUpdate(30)));
    expect(await kept.json()).toEqual({ received: true, recorded: 1 });
    expect(await reactionsOf()).toMatchObject({ value: 30, state: "measured" });
  });

  it("disconnecting deletes the webhook", async () => {
    const removed = await call(`/api/channels/${channelId}`, { method: "DELETE" });
    expect(removed.status, removed.text).toBe(204);
    expect(telegram.webhookOf(bot)).toBeNull();
  });
});
