import http from "node:http";
import type { AddressInfo } from "node:net";
import { createFakeInsights, type FakeInsights } from "./fake-insights";
import { readBody, sendJson } from "./fake-provider-kit";

/**
 * A local server that speaks the Telegram Bot API (https://core.telegram.org/bots/api) as publishing uses
 * it: `POST /bot<token>/<method>` with a JSON, form or multipart body; answers `{ok: true, result}` or
 * `{ok: false, error_code, description, parameters?: {retry_after}}`.
 * - getMe, getChat, getChatMember, sendMessage, sendVideo (a URL it fetches, or a multipart upload),
 *   sendPhoto (an upload) and sendMediaGroup (an album of 2-10 uploaded photos: a message each, one
 *   media_group_id, the caption on the first)
 * - Bots: `addBot()` makes a token; chats: `addChannel()` with the bots that administer it (and may post).
 * - Knobs (`behavior`, also `POST /__fake/behavior`): the next N sends answer 429 with retry_after, or 5xx,
 *   or post and then answer 5xx (`recordThenFail`: the message exists, the caller sees a 502);
 *   `latencyMs` before each send's answer; `revoke(token)` makes every call with it answer 401;
 *   `chatLimit` (Telegram's per-chat limit: N sends a chat per window, then 429 with retry_after) and
 *   `limitedChats` (every send to these chats answers 429).
 * - `messages`: every message posted, so a test can count them (`GET /__fake/state` too).
 * - Results (the Bot API gives no views): `insights.advance()` (or `POST /__fake/insights {"advance": n}`)
 *   adds reactions to every message and queues a `message_reaction_count` update per message
 *   (`{chat, message_id, date, reactions: [{type: {type: "emoji", emoji}, total_count}]}`, the full counts)
 *   for the bots that administer its chat; `getUpdates` (`offset` confirms earlier ones, `allowed_updates`
 *   must name message_reaction_count, which it remembers, as Telegram does) hands them out; with a webhook set
 *   (`setWebhook` with `url`, `secret_token` and `allowed_updates`; unlike Telegram it takes http URLs, for
 *   127.0.0.1) getUpdates answers 409 Conflict and each update is POSTed to the webhook with
 *   `X-Telegram-Bot-Api-Secret-Token` (`webhookDeliveries` records the answers); `getWebhookInfo` answers
 *   the URL and `deleteWebhook` removes it. `getChatMemberCount` answers the subscribers, which grow too.
 *   `insights.behavior.rateLimit` throttles these calls (429, retry_after).
 */

export type FakeTelegramMessage = {
  messageId: number;
  chatId: number;
  method: "sendMessage" | "sendVideo" | "sendPhoto" | "sendMediaGroup";
  text: string;
  video: { kind: "url"; url: string; fetchedBytes: number } | { kind: "upload"; bytes: number } | null;
  /** An uploaded photo's size in bytes (sendPhoto, or one photo of an album). */
  photoBytes: number | null;
  mediaGroupId: string | null;
  at: number;
  token: string;
};

type Bot = { id: number; token: string; username: string; revoked: boolean };
type Chat = {
  id: number;
  title: string;
  username?: string;
  admins: Map<number, { canPost: boolean }>;
  members: Set<number>;
};

export type FakeTelegramBehavior = {
  /** The next `count` send calls answer 429 Too Many Requests with `retry_after`. */
  rateLimit: { count: number; retryAfterSeconds: number };
  /** The next `count` send calls answer this 5xx. */
  serverError: { count: number; status: number };
  /**
   * The next `count` send calls post the message (recorded, as Telegram processed it), then answer this 5xx,
   * as a gateway does when the answer is lost on its way back.
   */
  recordThenFail: { count: number; status: number };
  /** Delay before every send call is answered (after the message is recorded). */
  sendLatencyMs: number;
  /**
   * Telegram's per-chat limit: at most `messages` sends to one chat in any `perSeconds`; a send over it
   * answers 429 with the retry_after (whole seconds) until the window has room. Null: no limit.
   */
  chatLimit: { messages: number; perSeconds: number } | null;
  /** Chats (by id) whose every send answers 429 with this retry_after: a channel rate limited for long. */
  limitedChats: Record<string, number>;
};

export type FakeTelegram = {
  url: string;
  behavior: FakeTelegramBehavior;
  messages: FakeTelegramMessage[];
  /** Every call (`at` when it came, `endedAt` when it was answered); a send's carries its chat id. */
  calls: { method: string; status: number; at: number; endedAt: number; chatId?: number }[];
  addBot: (username?: string) => string;
  addChannel: (options: {
    title: string;
    username?: string;
    admins?: { token: string; canPost?: boolean }[];
    /** Bots that are plain members (not administrators). */
    members?: string[];
    id?: number;
  }) => number;
  revoke: (token: string) => void;
  /** The bot's webhook (null when none is set): what setWebhook was given. */
  webhookOf: (token: string) => { url: string; secret: string } | null;
  /** Every update POSTed to a webhook, with the status it answered (0: no answer), once it answered. */
  webhookDeliveries: { url: string; updateId: number; status: number }[];
  insights: FakeInsights;
  close: () => Promise<void>;
};

type ReactionUpdate = {
  update_id: number;
  chatId: number;
  message_reaction_count: {
    chat: { id: number; type: string; title: string };
    message_id: number;
    date: number;
    reactions: { type: { type: "emoji"; emoji: string }; total_count: number }[];
  };
};

const fail = (res: http.ServerResponse, code: number, description: string, retryAfter?: number) =>
  sendJson(res, code, {
    ok: false,
    error_code: code,
    description,
    ...(retryAfter !== undefined ? { parameters: { retry_after: retryAfter } } : {}),
  });

async function readParams(
  req: http.IncomingMessage,
): Promise<{ fields: Record<string, string>; files: Record<string, number> }> {
  const body = await readBody(req);
  const type = req.headers["content-type"] ?? "";
  if (type.includes("multipart/form-data")) {
    const form = await new Request("http://fake/", {
      method: "POST",
      headers: { "content-type": type },
      body: new Uint8Array(body),
    }).formData();
    const fields: Record<string, string> = {};
    const files: Record<string, number> = {};
    for (const [key, value] of form.entries()) {
      if (typeof value === "string") fields[key] = value;
      else files[key] = (await value.arrayBuffer()).byteLength;
    }
    return { fields, files };
  }
  if (type.includes("application/x-www-form-urlencoded"))
    return { fields: Object.fromEntries(new URLSearchParams(body.toString())), files: {} };
  const json = body.length ? (JSON.parse(body.toString()) as Record<string, unknown>) : {};
  return {
    fields: Object.fromEntries(Object.entries(json).map(([key, value]) => [key, String(value)])),
    files: {},
  };
}

const SEND_METHODS = new Set(["sendMessage", "sendVideo", "sendPhoto", "sendMediaGroup"]);

export async function startFakeTelegram(options: { port?: number } = {}): Promise<FakeTelegram> {
  const bots = new Map<string, Bot>();
  const chats = new Map<number, Chat>();
  const messages: FakeTelegramMessage[] = [];
  const calls: FakeTelegram["calls"] = [];
  const behavior: FakeTelegramBehavior = {
    rateLimit: { count: 0, retryAfterSeconds: 2 },
    serverError: { count: 0, status: 502 },
    recordThenFail: { count: 0, status: 502 },
    sendLatencyMs: 0,
    chatLimit: null,
    limitedChats: {},
  };
  /** The chat each send call was for (its entry in `calls`). */
  const sendChats = new WeakMap<http.ServerResponse, number>();
  /** Per chat, when its recent sends were accepted (for `chatLimit`). */
  const chatSends = new Map<number, number[]>();
  let nextBotId = 7_000_000_000;
  let nextChatId = 1_000_000_000;
  let nextMessageId = 1;
  let nextUpdateId = 500_000_000;
  const updates: ReactionUpdate[] = [];
  const webhookDeliveries: FakeTelegram["webhookDeliveries"] = [];
  /** Per bot: the first update not yet confirmed, what it asked for, and its webhook. */
  const feeds = new Map<
    number,
    { offset: number; allowed: string[]; webhook: { url: string; secret: string } | null }
  >();
  const feedOf = (botId: number) => {
    let feed = feeds.get(botId);
    if (!feed) {
      feed = { offset: 0, allowed: [], webhook: null };
      feeds.set(botId, feed);
    }
    return feed;
  };
  const insights = createFakeInsights({
    onAdvance: () => {
      for (const message of messages) {
        const values = insights.values(`${message.chatId}:${message.messageId}`);
        const chat = chats.get(message.chatId);
        if (!values || !chat) continue;
        const update: ReactionUpdate = {
          update_id: nextUpdateId++,
          chatId: chat.id,
          message_reaction_count: {
            chat: { id: chat.id, type: "channel", title: chat.title },
            message_id: message.messageId,
            date: Math.floor(Date.now() / 1000),
            reactions: [
              { type: { type: "emoji", emoji: "👍" }, total_count: values.likes },
              { type: { type: "emoji", emoji: "🔥" }, total_count: values.shares },
            ],
          },
        };
        updates.push(update);
        for (const [botId, feed] of feeds) {
          if (!feed.webhook || !chat.admins.has(botId) || !feed.allowed.includes("message_reaction_count"))
            continue;
          const { chatId: _chat, ...body } = update;
          const { url } = feed.webhook;
          void fetch(url, {
            method: "POST",
            headers: {
              "Content-Type": "application/json",
              "X-Telegram-Bot-Api-Secret-Token": feed.webhook.secret,
            },
            body: JSON.stringify(body),
          })
            .then((answer) => answer.status)
            .catch(() => 0)
            .then((status) => webhookDeliveries.push({ url, updateId: update.update_id, status }));
        }
      }
    },
  });

  const findChat = (chatId: string | undefined) => {
    if (!chatId) return undefined;
    if (chatId.startsWith("@"))
      return [...chats.values()].find(
        (chat) => chat.username?.toLowerCase() === chatId.slice(1).toLowerCase(),
      );
    return chats.get(Number(chatId));
  };
  const chatJson = (chat: Chat) => ({
    id: chat.id,
    type: "channel",
    title: chat.title,
    ...(chat.username ? { username: chat.username } : {}),
  });

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse, url: URL) => {
    if (url.pathname === "/__fake/behavior" && req.method === "POST") {
      Object.assign(behavior, JSON.parse((await readBody(req)).toString() || "{}"));
      return sendJson(res, 200, behavior);
    }
    if (url.pathname === "/__fake/state") return sendJson(res, 200, { messages, behavior });
    if (url.pathname === "/__fake/insights" && req.method === "POST")
      return sendJson(res, 200, insights.control(JSON.parse((await readBody(req)).toString() || "{}")));
    if (url.pathname === "/__fake/channels" && req.method === "POST") {
      // A bot and a channel it administers, for tests in another process (Playwright).
      const { title = "Test channel", username } = JSON.parse((await readBody(req)).toString() || "{}");
      const token = fake.addBot();
      const chatId = fake.addChannel({ title, username, admins: [{ token }] });
      return sendJson(res, 200, { botToken: token, chatId });
    }
    const match = /^\/bot([^/]+)\/(\w+)$/.exec(url.pathname);
    if (!match) return fail(res, 404, "Not Found");
    const [, token, method] = match;
    const bot = bots.get(token);
    if (!bot || bot.revoked) return fail(res, 401, "Unauthorized");
    const { fields, files } = await readParams(req);
    if (method === "getMe") {
      return sendJson(res, 200, {
        ok: true,
        result: { id: bot.id, is_bot: true, first_name: bot.username, username: bot.username },
      });
    }
    if (
      ["getUpdates", "setWebhook", "deleteWebhook", "getChatMemberCount"].includes(method) &&
      insights.throttled()
    )
      return fail(
        res,
        429,
        `Too Many Requests: retry after ${insights.behavior.rateLimit.retryAfterSeconds}`,
        insights.behavior.rateLimit.retryAfterSeconds,
      );
    const feed = feedOf(bot.id);
    // A JSON body's array arrives here joined by commas (readParams); a form sends it as JSON text.
    const allowedFrom = (value: string | undefined) => {
      if (value === undefined) return;
      feed.allowed = value.startsWith("[") ? (JSON.parse(value) as unknown[]).map(String) : value.split(",");
    };
    if (method === "setWebhook") {
      if (fields.secret_token && !/^[A-Za-z0-9_-]{1,256}$/.test(fields.secret_token))
        return fail(res, 400, "Bad Request: secret token contains unallowed characters");
      allowedFrom(fields.allowed_updates);
      feed.webhook = fields.url ? { url: fields.url, secret: fields.secret_token ?? "" } : null;
      return sendJson(res, 200, { ok: true, result: true, description: "Webhook was set" });
    }
    if (method === "getWebhookInfo") {
      return sendJson(res, 200, {
        ok: true,
        result: {
          url: feed.webhook?.url ?? "",
          has_custom_certificate: false,
          pending_update_count: 0,
          ...(feed.webhook ? { allowed_updates: feed.allowed } : {}),
        },
      });
    }
    if (method === "deleteWebhook") {
      feed.webhook = null;
      return sendJson(res, 200, { ok: true, result: true, description: "Webhook was deleted" });
    }
    if (method === "getUpdates") {
      if (feed.webhook)
        return fail(
          res,
          409,
          "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first",
        );
      allowedFrom(fields.allowed_updates);
      const offset = Number(fields.offset ?? 0);
      if (offset > feed.offset) feed.offset = offset;
      const limit = Math.min(Math.max(Number(fields.limit ?? 100), 1), 100);
      const result = updates
        .filter(
          (update) =>
            update.update_id >= feed.offset &&
            feed.allowed.includes("message_reaction_count") &&
            chats.get(update.chatId)?.admins.has(bot.id),
        )
        .slice(0, limit)
        .map(({ chatId: _chat, ...update }) => update);
      return sendJson(res, 200, { ok: true, result });
    }
    const chat = findChat(fields.chat_id);
    if (!chat || !(chat.admins.has(bot.id) || chat.members.has(bot.id)))
      return fail(res, 400, "Bad Request: chat not found");
    if (method === "getChat") return sendJson(res, 200, { ok: true, result: chatJson(chat) });
    if (method === "getChatMemberCount")
      return sendJson(res, 200, { ok: true, result: insights.followers() });
    if (method === "getChatMember") {
      const userId = Number(fields.user_id);
      const admin = chat.admins.get(userId);
      if (!admin && !chat.members.has(userId)) return fail(res, 400, "Bad Request: user not found");
      const user = { id: userId, is_bot: true, first_name: bot.username, username: bot.username };
      return sendJson(res, 200, {
        ok: true,
        result: admin
          ? { status: "administrator", user, can_post_messages: admin.canPost }
          : { status: "member", user },
      });
    }
    if (!SEND_METHODS.has(method)) return fail(res, 404, "Not Found: method not found");
    sendChats.set(res, chat.id);
    if (behavior.rateLimit.count > 0) {
      behavior.rateLimit.count--;
      return fail(
        res,
        429,
        `Too Many Requests: retry after ${behavior.rateLimit.retryAfterSeconds}`,
        behavior.rateLimit.retryAfterSeconds,
      );
    }
    const limitedFor = behavior.limitedChats[String(chat.id)];
    if (limitedFor !== undefined)
      return fail(res, 429, `Too Many Requests: retry after ${limitedFor}`, limitedFor);
    if (behavior.chatLimit) {
      const { messages: most, perSeconds } = behavior.chatLimit;
      const now = Date.now();
      const recent = (chatSends.get(chat.id) ?? []).filter((at) => at > now - perSeconds * 1000);
      chatSends.set(chat.id, recent);
      if (recent.length >= most) {
        const wait = Math.max(1, Math.ceil((recent[0] + perSeconds * 1000 - now) / 1000));
        return fail(res, 429, `Too Many Requests: retry after ${wait}`, wait);
      }
      recent.push(now);
    }
    if (behavior.serverError.count > 0) {
      behavior.serverError.count--;
      return fail(res, behavior.serverError.status, "Internal Server Error");
    }
    if (!chat.admins.get(bot.id)?.canPost)
      return fail(res, 403, "Forbidden: bot is not a member of the channel chat");
    const record = (fields: Partial<FakeTelegramMessage>): FakeTelegramMessage => {
      const message: FakeTelegramMessage = {
        messageId: nextMessageId++,
        chatId: chat.id,
        method: method as FakeTelegramMessage["method"],
        text: "",
        video: null,
        photoBytes: null,
        mediaGroupId: null,
        at: Date.now(),
        token,
        ...fields,
      };
      messages.push(message);
      insights.track(`${message.chatId}:${message.messageId}`);
      return message;
    };
    const resultOf = (message: FakeTelegramMessage) => ({
      message_id: message.messageId,
      date: Math.floor(message.at / 1000),
      chat: chatJson(chat),
      ...(message.method === "sendMessage" ? { text: message.text } : { caption: message.text }),
      ...(message.video ? { video: { file_id: `vid${message.messageId}` } } : {}),
      ...(message.photoBytes ? { photo: [{ file_id: `pho${message.messageId}` }] } : {}),
      ...(message.mediaGroupId ? { media_group_id: message.mediaGroupId } : {}),
    });
    const answer = async (result: unknown) => {
      if (behavior.sendLatencyMs) await new Promise((resolve) => setTimeout(resolve, behavior.sendLatencyMs));
      if (behavior.recordThenFail.count > 0) {
        behavior.recordThenFail.count--;
        return fail(res, behavior.recordThenFail.status, "Bad Gateway");
      }
      return sendJson(res, 200, { ok: true, result });
    };

    if (method === "sendMediaGroup") {
      let album: { type?: string; media?: string; caption?: string }[];
      try {
        album = JSON.parse(fields.media ?? "");
      } catch {
        return fail(res, 400, "Bad Request: can't parse media JSON object");
      }
      if (!Array.isArray(album) || album.length < 2 || album.length > 10)
        return fail(res, 400, "Bad Request: media must include 2-10 items");
      const photos: { bytes: number; caption: string }[] = [];
      for (const item of album) {
        const name = /^attach:\/\/(.+)$/.exec(item.media ?? "")?.[1];
        if (item.type !== "photo" || !name || !files[name])
          return fail(res, 400, "Bad Request: wrong file identifier/HTTP URL specified");
        if ((item.caption ?? "").length > 1024)
          return fail(res, 400, "Bad Request: message caption is too long");
        photos.push({ bytes: files[name], caption: item.caption ?? "" });
      }
      const mediaGroupId = String(nextMessageId * 1000);
      const sent = photos.map((photo) =>
        record({ text: photo.caption, photoBytes: photo.bytes, mediaGroupId }),
      );
      return answer(sent.map(resultOf));
    }
    const text = method === "sendMessage" ? (fields.text ?? "") : (fields.caption ?? "");
    if (method === "sendMessage") {
      if (!text) return fail(res, 400, "Bad Request: message text is empty");
      if (text.length > 4096) return fail(res, 400, "Bad Request: message is too long");
      return answer(resultOf(record({ text })));
    }
    if (text.length > 1024) return fail(res, 400, "Bad Request: message caption is too long");
    if (method === "sendPhoto") {
      if (!files.photo) return fail(res, 400, "Bad Request: there is no photo in the request");
      return answer(resultOf(record({ text, photoBytes: files.photo })));
    }
    let video: FakeTelegramMessage["video"];
    if (files.video) video = { kind: "upload", bytes: files.video };
    else if (fields.video && /^https?:\/\//.test(fields.video)) {
      const fetched = await fetch(fields.video).catch(() => null);
      if (!fetched?.ok) return fail(res, 400, "Bad Request: failed to get HTTP URL content");
      video = { kind: "url", url: fields.video, fetchedBytes: (await fetched.arrayBuffer()).byteLength };
    } else return fail(res, 400, "Bad Request: there is no video in the request");
    return answer(resultOf(record({ text, video })));
  };

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://fake");
    const at = Date.now();
    res.on("finish", () => {
      const chatId = sendChats.get(res);
      calls.push({
        method: url.pathname.split("/").pop() ?? "",
        status: res.statusCode,
        at,
        endedAt: Date.now(),
        ...(chatId !== undefined ? { chatId } : {}),
      });
    });
    try {
      await handle(req, res, url);
    } catch (error) {
      if (!res.headersSent) fail(res, 500, `Internal Server Error: ${(error as Error).message}`);
    }
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const fake: FakeTelegram = {
    url: `http://127.0.0.1:${port}`,
    behavior,
    messages,
    calls,
    addBot(username = `brand_studio_${nextBotId}_bot`) {
      const id = nextBotId++;
      const token = `${id}:AAF${Buffer.from(String(id)).toString("base64url")}fakeTelegramTokenXYZ`;
      bots.set(token, { id, token, username, revoked: false });
      return token;
    },
    addChannel({ title, username, admins = [], members = [], id }) {
      const chatId = id ?? -(1_000_000_000_000 + nextChatId++);
      const chat: Chat = { id: chatId, title, username, admins: new Map(), members: new Set() };
      for (const member of members) {
        const bot = bots.get(member);
        if (bot) chat.members.add(bot.id);
      }
      for (const admin of admins) {
        const bot = bots.get(admin.token);
        if (bot) chat.admins.set(bot.id, { canPost: admin.canPost ?? true });
      }
      chats.set(chatId, chat);
      return chatId;
    },
    revoke(token) {
      const bot = bots.get(token);
      if (bot) bot.revoked = true;
    },
    webhookOf(token) {
      const bot = bots.get(token);
      return (bot && feeds.get(bot.id)?.webhook) || null;
    },
    webhookDeliveries,
    insights,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return fake;
}
