import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newUser } from "./support/auth";
import { type FakeTelegram, startFakeTelegram } from "./support/fake-telegram";
import { api } from "./support/http";
import { expectNoSecretAtRest } from "./support/secrets-at-rest";
import { startTestServer, type TestServer } from "./support/test-server";
import { finishedVideoUrl } from "./support/video-api";
import { waitFor } from "./support/video-media";

// Publishing against the real server and a fake Telegram Bot API that speaks the documented shapes and
// records every message it was sent.

const onPostgres = Boolean(process.env.DATABASE_URL);

let telegram: FakeTelegram;
let server: TestServer;
let token: string;
let brandId: string;
let botToken: string;
let chatId: number;

const call = (p: string, init: Parameters<typeof api>[1] = {}) =>
  api(p, { server: server.url, token, ...init });

async function newPost(caption?: string, extra: Record<string, unknown> = {}) {
  const created = await call("/api/content/create", {
    method: "POST",
    json: {
      brandId,
      channel: "telegram",
      goal: "announcement",
      topic: "Our autumn seasonal blend arrives in every café next week",
    },
  });
  expect(created.status, created.text).toBe(201);
  const postId = created.body.postId as string;
  if (caption !== undefined || Object.keys(extra).length > 0) {
    const patched = await call(`/api/posts/${postId}`, {
      method: "PATCH",
      json: {
        ...(caption !== undefined
          ? { caption, hashtags: [], mediaPlan: { format: "text_only", items: [] } }
          : {}),
        ...extra,
      },
    });
    expect(patched.status, patched.text).toBe(200);
  }
  return postId;
}

/** A post whose media plan has `count` images, each drawn by the server (no image model configured). */
async function postWithImages(caption: string, count: number, hashtags: string[] = []) {
  const items = Array.from({ length: count }, (_, index) => ({
    type: "image",
    aspectRatio: "1:1",
    description: `Photo ${index + 1} of the roast`,
    altText: `Photo ${index + 1}`,
  }));
  const postId = await newPost(caption, {
    hashtags,
    mediaPlan: { format: count > 1 ? "carousel" : "single_image", items },
  });
  for (let index = 0; index < count; index++) {
    const drawn = await call(`/api/posts/${postId}/media/${index}/image/generate`, { method: "POST" });
    expect(drawn.status, drawn.text).toBe(200);
  }
  return postId;
}

async function connect(bot = botToken, chat: string | number = chatId, brand = brandId) {
  return call("/api/channels", {
    method: "POST",
    json: { brandId: brand, channel: "telegram", botToken: bot, chatId: String(chat) },
  });
}

async function publish(postId: string, channelId: string, publishAt?: string) {
  return call(`/api/posts/${postId}/publications`, {
    method: "POST",
    json: { channelId, ...(publishAt ? { publishAt } : {}) },
  });
}

async function waitForPublication(
  publicationId: string,
  done: (p: { status: string }) => boolean,
  timeoutMs = 30_000,
) {
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON.
  let last: any = {};
  await waitFor(
    async () => {
      const response = await call(`/api/publications/${publicationId}`);
      last = response.body;
      return done(response.body);
    },
    { timeoutMs, what: `publication ${publicationId}` },
  ).catch((error: Error) => {
    throw new Error(`${error.message} Last: ${JSON.stringify(last)}`);
  });
  return last;
}

const messagesTo = (chat: number) => telegram.messages.filter((message) => message.chatId === chat);

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
    json: { name: "Publishing Brand", tone: "warm and direct", voice: "short sentences" },
  });
  brandId = brand.body.brandId;
  botToken = telegram.addBot("acme_publisher_bot");
  chatId = telegram.addChannel({ title: "Acme News", username: "acme_news", admins: [{ token: botToken }] });
});

afterAll(async () => {
  await server?.stop();
  await telegram?.close();
});

describe("connecting a Telegram channel", () => {
  it("refuses a bad token, an unknown chat and a bot that is not an administrator, saving nothing", async () => {
    const wrongToken = await connect("123456:AAFnot-a-real-token-0000000000", "@acme_news");
    expect(wrongToken.status).toBe(422);
    expect(wrongToken.body.error).toMatchObject({
      code: "channel_check_failed",
      details: { check: "token" },
    });
    expect(wrongToken.body.error.message).toMatch(/token/i);

    const unknownChat = await connect(botToken, "@nobody_here");
    expect(unknownChat.status).toBe(422);
    expect(unknownChat.body.error.details).toMatchObject({
      check: "chat",
      platformMessage: "Bad Request: chat not found",
    });

    const memberBot = telegram.addBot("only_member_bot");
    const plainChat = telegram.addChannel({ title: "Plain", members: [memberBot] });
    const notAdmin = await connect(memberBot, plainChat);
    expect(notAdmin.status).toBe(422);
    expect(notAdmin.body.error.details).toMatchObject({ check: "admin" });
    expect(notAdmin.body.error.message).toMatch(/not an administrator/);

    const mutedBot = telegram.addBot("muted_admin_bot");
    const mutedChat = telegram.addChannel({ title: "Muted", admins: [{ token: mutedBot, canPost: false }] });
    const cannotPost = await connect(mutedBot, mutedChat);
    expect(cannotPost.status).toBe(422);
    expect(cannotPost.body.error.message).toMatch(/may not post/);

    const malformed = await connect("not a token", "@acme_news");
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.details[0].path).toBe("botToken");

    const list = await call(`/api/channels?brandId=${brandId}`);
    expect(list.body.items).toEqual([]);
  });

  it("connects after getMe, getChat and getChatMember, and never returns or logs the token", async () => {
    const response = await connect(botToken, "@acme_news");
    expect(response.status, response.text).toBe(201);
    expect(response.body).toMatchObject({
      brandId,
      channel: "telegram",
      accountName: "Acme News",
      accountHandle: "@acme_news",
      status: "active",
      // APP_URL is the test server's 127.0.0.1: Telegram could not fetch from it, so videos are uploaded.
      mediaDelivery: "upload",
    });
    expect(response.text).not.toContain(botToken);
    const list = await call(`/api/channels?brandId=${brandId}`);
    expect(list.body.items).toHaveLength(1);
    expect(list.text).not.toContain(botToken);
    expect(server.logs()).not.toContain(botToken);
    expect(server.logs()).not.toContain(botToken.split(":")[1]);
  });

  it("offers LinkedIn only when its OAuth client is configured: 409 channel_not_configured names the variables", async () => {
    const start = await call(`/api/channels/oauth/linkedin/start?brandId=${brandId}`, { redirect: "manual" });
    expect(start.status).toBe(409);
    expect(start.body.error).toMatchObject({
      code: "channel_not_configured",
      details: { channel: "linkedin", missing: ["LINKEDIN_CLIENT_ID", "LINKEDIN_CLIENT_SECRET"] },
    });
  });

  it("answers 404 to a non-member and 403 to a member who is not an owner", async () => {
    const stranger = await newUser(server.url);
    const response = await api(`/api/channels?brandId=${brandId}`, {
      server: server.url,
      token: stranger.token,
    });
    expect(response.status).toBe(404);
    const post = await api("/api/channels", {
      server: server.url,
      token: stranger.token,
      method: "POST",
      json: { brandId, channel: "telegram", botToken, chatId: "@acme_news" },
    });
    expect(post.status).toBe(404);
  });

  it("keeps the token unreadable at rest (a database dump, or the embedded database's files)", () => {
    expectNoSecretAtRest(server, [botToken, botToken.split(":")[1]], "Acme News");
  });

  it.skipIf(!onPostgres)("stores the credentials as an encrypted envelope", async () => {
    const sql = postgres(server.databaseUrl as string, { max: 1, onnotice: () => {} });
    const [row] = await sql`select credentials from channel_connections limit 1`;
    await sql.end();
    expect(row.credentials).toMatch(/^v1\.a\.[\w-]+\.[\w-]+\.[\w-]+$/);
  });
});

describe("publishing", () => {
  let channelId: string;
  beforeAll(async () => {
    const list = await call(`/api/channels?brandId=${brandId}`);
    channelId = list.body.items[0].channelId;
  });

  it("publishes now: 202, then published with the permalink, exactly one message, and the post is published", async () => {
    const postId = await newPost("Fresh beans every morning. Come taste the autumn blend!");
    const before = messagesTo(chatId).length;
    const response = await publish(postId, channelId);
    expect(response.status, response.text).toBe(202);
    expect(response.body.status).toBe("scheduled");
    expect(response.headers.get("location")).toBe(`/api/publications/${response.body.publicationId}`);
    const done = await waitForPublication(
      response.body.publicationId,
      (p) => p.status === "published" || p.status === "failed",
    );
    expect(done.status).toBe("published");
    const sent = messagesTo(chatId).slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      method: "sendMessage",
      text: "Fresh beans every morning. Come taste the autumn blend!",
    });
    expect(done.externalId).toBe(String(sent[0].messageId));
    expect(done.permalink).toBe(`https://t.me/acme_news/${sent[0].messageId}`);
    expect(done.attempts).toBe(1);
    const post = await call(`/api/posts/${postId}`);
    expect(post.body.status).toBe("published");
    // The brand's activity: the post's creation and its publication, both written by the database with
    // the change (migration 0007), naming who asked.
    const activity = await call(`/api/brands/${brandId}/activity?limit=100`);
    expect(activity.status, activity.text).toBe(200);
    const ofPost = activity.body.items.filter((entry: { subjectId: string }) => entry.subjectId === postId);
    expect(ofPost.map((entry: { action: string }) => entry.action)).toEqual([
      "post.published",
      "post.updated",
      "post.created",
    ]);
    expect(ofPost[0]).toMatchObject({
      actorEmail: expect.stringContaining("@"),
      details: { channel: "telegram", publicationId: done.publicationId, permalink: done.permalink },
    });
    expect(ofPost[2]).toMatchObject({ actorId: ofPost[0].actorId, details: { channel: "telegram" } });
  });

  it("sends the post's video with sendVideo, uploaded when APP_URL is not public", async () => {
    const videoUrl = await finishedVideoUrl(call, brandId);
    const postId = await newPost("Watch how we roast.", { videoUrl });
    const before = messagesTo(chatId).length;
    const response = await publish(postId, channelId);
    const done = await waitForPublication(
      response.body.publicationId,
      (p) => p.status === "published" || p.status === "failed",
    );
    expect(done.status, JSON.stringify(done)).toBe("published");
    const [sent] = messagesTo(chatId).slice(before);
    expect(sent.method).toBe("sendVideo");
    expect(sent.text).toBe("Watch how we roast.");
    expect(sent.video).toMatchObject({ kind: "upload" });
    expect((sent.video as { bytes: number }).bytes).toBeGreaterThan(1000);
  }, 180_000);

  it("sends the media plan's images: one with sendPhoto, two as an album with the caption on its first photo", async () => {
    const settle = async (postId: string) => {
      const response = await publish(postId, channelId);
      expect(response.status, response.text).toBe(202);
      return waitForPublication(
        response.body.publicationId,
        (p) => p.status === "published" || p.status === "failed",
      );
    };
    let before = messagesTo(chatId).length;
    const single = await settle(await postWithImages("One roast, one photo.", 1));
    expect(single.status, JSON.stringify(single)).toBe("published");
    const [photo, ...others] = messagesTo(chatId).slice(before);
    expect(others).toHaveLength(0);
    expect(photo).toMatchObject({ method: "sendPhoto", text: "One roast, one photo.", video: null });
    expect(photo.photoBytes).toBeGreaterThan(1000);
    expect(single.permalink).toBe(`https://t.me/acme_news/${photo.messageId}`);

    before = messagesTo(chatId).length;
    const album = await settle(await postWithImages("Two looks at the roast.", 2));
    expect(album.status, JSON.stringify(album)).toBe("published");
    const sent = messagesTo(chatId).slice(before);
    expect(sent.map((message) => message.method)).toEqual(["sendMediaGroup", "sendMediaGroup"]);
    expect(sent.map((message) => message.text)).toEqual(["Two looks at the roast.", ""]);
    expect(new Set(sent.map((message) => message.mediaGroupId)).size).toBe(1);
    for (const message of sent) expect(message.photoBytes).toBeGreaterThan(1000);
    expect(album.externalId).toBe(String(sent[0].messageId));

    // With images the text sent may have 1,024 characters, as with a video (the hashtags the caption does not
    // hold are sent after it and count too): refused before anything is sent.
    before = telegram.messages.length;
    const long = await publish(await postWithImages("z".repeat(1020), 1, ["#autumn"]), channelId);
    expect(long.status).toBe(422);
    expect(long.body.error.details).toMatchObject({
      rule: "caption_length",
      limit: 1024,
      actual: 1029,
      withMedia: true,
    });
    expect(telegram.messages.length).toBe(before);
  }, 120_000);

  it("refuses rule violations before anything is sent: 422 with the rule, 0 messages", async () => {
    const before = telegram.messages.length;
    // A caption may have 4,096 characters; the hashtags it does not hold are sent after it and count too.
    const long = await newPost("x".repeat(4090), { hashtags: ["#autumn"] });
    const response = await publish(long, channelId);
    expect(response.status).toBe(422);
    expect(response.body.error).toMatchObject({
      code: "publish_rule_violation",
      details: { channel: "telegram", rule: "caption_length", limit: 4096, actual: 4099, withMedia: false },
    });
    const withVideo = await newPost("y".repeat(1025), { videoUrl: "https://cdn.example.com/clip.mp4" });
    const media = await publish(withVideo, channelId);
    expect(media.status).toBe(422);
    expect(media.body.error.details).toMatchObject({
      rule: "caption_length",
      limit: 1024,
      actual: 1025,
      withMedia: true,
    });
    // A story is an Instagram placement: on Telegram it is a 400 naming placement.
    const story = await call(`/api/posts/${await newPost("A story, on Telegram.")}/publications`, {
      method: "POST",
      json: { channelId, placement: "story" },
    });
    expect(story.status).toBe(400);
    expect(story.body.error).toMatchObject({
      code: "invalid_request",
      details: [{ path: "placement", message: "Stories are published on Instagram only." }],
    });
    expect(telegram.messages.length).toBe(before);
  });

  it("checks the rules again when it runs: a post edited past the limit after scheduling fails, 0 sent", async () => {
    const postId = await newPost("Short and fine.");
    const at = new Date(Date.now() + 3000).toISOString();
    const response = await publish(postId, channelId, at);
    expect(response.status).toBe(202);
    const edited = await call(`/api/posts/${postId}`, {
      method: "PATCH",
      json: { caption: "z".repeat(4096), hashtags: ["#late"] },
    });
    expect(edited.status, edited.text).toBe(200);
    const before = telegram.messages.length;
    const done = await waitForPublication(
      response.body.publicationId,
      (p) => p.status === "failed" || p.status === "published",
    );
    expect(done.error).toMatchObject({ code: "publish_rule_violation", retryable: false });
    expect(telegram.messages.length).toBe(before);
  });

  it("schedules: stays scheduled until publishAt, then publishes; the calendar lists it in its window", async () => {
    const postId = await newPost("Scheduled hello.");
    const at = new Date(Date.now() + 5000);
    const response = await publish(postId, channelId, at.toISOString());
    const { publicationId } = response.body;
    const early = await call(`/api/publications/${publicationId}`);
    expect(early.body).toMatchObject({ status: "scheduled", publishAt: at.toISOString() });
    expect((await call(`/api/posts/${postId}`)).body.status).toBe("scheduled");
    const from = new Date(at.getTime() - 60_000).toISOString();
    const to = new Date(at.getTime() + 60_000).toISOString();
    const calendar = await call(`/api/publications?brandId=${brandId}&from=${from}&to=${to}`);
    expect(calendar.body.items.map((p: { publicationId: string }) => p.publicationId)).toContain(
      publicationId,
    );
    const done = await waitForPublication(publicationId, (p) => p.status === "published");
    expect(Date.parse(done.startedAt)).toBeGreaterThanOrEqual(at.getTime() - 1000);
    const bad = await call(`/api/publications?brandId=${brandId}&from=${to}&to=${from}`);
    expect(bad.status).toBe(400);
  });

  it("cancels a scheduled one (nothing sent, post back to draft) and refuses to cancel a published one", async () => {
    const postId = await newPost("Never sent.");
    const response = await publish(postId, channelId, new Date(Date.now() + 3_600_000).toISOString());
    const before = telegram.messages.length;
    const canceled = await call(`/api/publications/${response.body.publicationId}`, { method: "DELETE" });
    expect(canceled.status).toBe(200);
    expect(canceled.body.status).toBe("canceled");
    expect((await call(`/api/posts/${postId}`)).body.status).toBe("draft");
    const again = await call(`/api/publications/${response.body.publicationId}`, { method: "DELETE" });
    expect(again.status).toBe(200);
    const published = (await call(`/api/publications?brandId=${brandId}`)).body.items.find(
      (p: { status: string }) => p.status === "published",
    );
    const refused = await call(`/api/publications/${published.publicationId}`, { method: "DELETE" });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({
      code: "publication_not_cancelable",
      details: { status: "published" },
    });
    expect(telegram.messages.length).toBe(before);
  });

  it("retries a 429 after the platform's retry_after, posting exactly once; a 5xx after the send is an unknown outcome", async () => {
    const postId = await newPost("Rate limited, then fine.");
    telegram.behavior.rateLimit = { count: 1, retryAfterSeconds: 3 };
    const before = messagesTo(chatId).length;
    const started = Date.now();
    const response = await publish(postId, channelId);
    const done = await waitForPublication(
      response.body.publicationId,
      (p) => p.status === "published" || p.status === "failed",
    );
    expect(done.status).toBe("published");
    expect(done.attempts).toBe(2);
    const sendCalls = telegram.calls.filter((c) => c.method === "sendMessage" && c.at >= started);
    expect(sendCalls.map((c) => c.status)).toEqual([429, 200]);
    expect(sendCalls[1].at - sendCalls[0].at).toBeGreaterThanOrEqual(2900);
    expect(messagesTo(chatId).length - before).toBe(1);

    // A 5xx answers the call that cannot be undone: Telegram may have posted it (DESIGN §11), so it is
    // never retried blind; a person settles it (mark posted / send again).
    const second = await newPost("Server error after the send.");
    telegram.behavior.serverError = { count: 1, status: 502 };
    const unknown = await publish(second, channelId);
    const settled = await waitForPublication(
      unknown.body.publicationId,
      (p) => p.status === "published" || p.status === "failed",
    );
    expect(settled).toMatchObject({
      status: "failed",
      attempts: 1,
      error: { code: "publish_outcome_unknown", retryable: false },
    });
    expect(messagesTo(chatId).length - before).toBe(1);
  });

  // The approval workflow (and requiresApproval in the brand contract) is built separately; the column
  // exists, so the brand is switched in the database here.
  it.skipIf(!onPostgres)(
    "requires approval where the brand does: 409 post_not_approved, nothing sent",
    async () => {
      const other = await call("/api/brands", {
        method: "POST",
        json: { name: "Approval Brand", tone: "calm", voice: "plain" },
      });
      const approvalBrand = other.body.brandId as string;
      const sql = postgres(server.databaseUrl as string, { max: 1, onnotice: () => {} });
      await sql`update brands set requires_approval = true where id = ${approvalBrand}`;
      const connected = await connect(botToken, "@acme_news", approvalBrand);
      expect(connected.status, connected.text).toBe(201);
      const created = await call("/api/content/create", {
        method: "POST",
        json: {
          brandId: approvalBrand,
          channel: "telegram",
          goal: "awareness",
          topic: "A calm morning with our new tea",
        },
      });
      const before = telegram.messages.length;
      const response = await publish(created.body.postId, connected.body.channelId);
      expect(response.status).toBe(409);
      expect(response.body.error).toMatchObject({ code: "post_not_approved", details: { status: "draft" } });
      await sql`update posts set status = 'approved' where id = ${created.body.postId}`;
      await sql.end();
      const approved = await publish(created.body.postId, connected.body.channelId);
      expect(approved.status, approved.text).toBe(202);
      const done = await waitForPublication(approved.body.publicationId, (p) => p.status === "published");
      expect(done.status).toBe("published");
      expect(telegram.messages.length - before).toBe(1);
    },
  );

  it("a revoked token ends failed channel_reauth_required, and the connection shows needs_reconnect", async () => {
    const bot = telegram.addBot("soon_revoked_bot");
    const chat = telegram.addChannel({ title: "Revoked", admins: [{ token: bot }] });
    const connected = await connect(bot, chat);
    expect(connected.status).toBe(201);
    telegram.revoke(bot);
    const postId = await newPost("This will not go out.");
    const response = await publish(postId, connected.body.channelId);
    const done = await waitForPublication(
      response.body.publicationId,
      (p) => p.status === "failed" || p.status === "published",
    );
    expect(done.error).toMatchObject({ code: "channel_reauth_required", retryable: false });
    expect(messagesTo(chat)).toHaveLength(0);
    const list = await call(`/api/channels?brandId=${brandId}`);
    const channel = list.body.items.find(
      (c: { channelId: string }) => c.channelId === connected.body.channelId,
    );
    expect(channel.status).toBe("needs_reconnect");
    expect(channel.statusMessage).toMatch(/refused/);
    const again = await publish(postId, connected.body.channelId);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe("channel_reauth_required");
    expect((await call(`/api/posts/${postId}`)).body.status).toBe("draft");
  });

  it("disconnecting removes the connection; 404 for another brand's channel", async () => {
    const bot = telegram.addBot("short_lived_bot");
    const chat = telegram.addChannel({ title: "Short lived", admins: [{ token: bot }] });
    const connected = await connect(bot, chat);
    const stranger = await newUser(server.url);
    const foreign = await api(`/api/channels/${connected.body.channelId}`, {
      server: server.url,
      token: stranger.token,
      method: "DELETE",
    });
    expect(foreign.status).toBe(404);
    const removed = await call(`/api/channels/${connected.body.channelId}`, { method: "DELETE" });
    expect(removed.status).toBe(204);
    const list = await call(`/api/channels?brandId=${brandId}`);
    expect(list.body.items.some((c: { channelId: string }) => c.channelId === connected.body.channelId)).toBe(
      false,
    );
  });
});
