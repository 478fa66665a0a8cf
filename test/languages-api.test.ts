import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { brandResponse } from "@/lib/contracts/brands";
import { errorEnvelope } from "@/lib/contracts/common";
import { publishAllLanguagesResponse } from "@/lib/contracts/post-groups";
import { generatedPost } from "@/lib/contracts/posts";
import { channelConnection } from "@/lib/contracts/publishing";
import { newUser } from "./support/auth";
import { type FakeTelegram, startFakeTelegram } from "./support/fake-telegram";
import { api } from "./support/http";
import { languageByStopWords } from "./support/stop-words";
import { startTestServer, type TestServer } from "./support/test-server";
import { waitFor } from "./support/video-media";

// Languages (DESIGN §11) through the real server on the built-in model, publishing to a fake Telegram.

let telegram: FakeTelegram;
let server: TestServer;
let token: string;
let brandId: string;

const call = (path: string, init: Parameters<typeof api>[1] = {}) =>
  api(path, { server: server.url, token, ...init });

function expectError(response: Awaited<ReturnType<typeof api>>, status: number, code: string) {
  expect(response.status, response.text).toBe(status);
  const { error } = errorEnvelope.parse(response.body);
  expect(error.code).toBe(code);
  return error;
}

const TOPIC = "Our autumn seasonal blend arrives in every café next week";

beforeAll(async () => {
  telegram = await startFakeTelegram();
  server = await startTestServer({
    env: { TELEGRAM_API_BASE_URL: telegram.url, PUBLISH_SWEEP_INTERVAL_SECONDS: "2" },
  });
  ({ token } = await newUser(server.url));
  const created = await call("/api/brands", {
    method: "POST",
    json: {
      name: "Lingua Coffee",
      tone: "warm and direct",
      voice: "short sentences",
      languages: ["en", "es"],
    },
  });
  expect(created.status, created.text).toBe(201);
  brandId = created.body.brandId;
});

afterAll(async () => {
  await server?.stop();
  await telegram?.close();
});

describe("a brand's languages", () => {
  it("lists them, the first as language; language alone keeps working and sets the main one", async () => {
    const brand = brandResponse.parse((await call(`/api/brands/${brandId}`)).body);
    expect(brand).toMatchObject({ language: "en", languages: ["en", "es"] });

    const oldClient = await call("/api/brands", {
      method: "POST",
      json: { name: "Mono", language: "pt-br" },
    });
    expect(oldClient.status, oldClient.text).toBe(201);
    expect(oldClient.body).toMatchObject({ language: "pt-BR", languages: ["pt-BR"] });

    const main = await call(`/api/brands/${oldClient.body.brandId}`, {
      method: "PATCH",
      json: { languages: ["pt-BR", "fr"] },
    });
    expect(main.body).toMatchObject({ language: "pt-BR", languages: ["pt-BR", "fr"] });
    const switched = await call(`/api/brands/${oldClient.body.brandId}`, {
      method: "PATCH",
      json: { language: "fr" },
    });
    expect(switched.body).toMatchObject({ language: "fr", languages: ["fr", "pt-BR"] });
  });

  it("names unknown tags and a language that disagrees with languages[0]", async () => {
    const unknown = expectError(
      await call(`/api/brands/${brandId}`, { method: "PATCH", json: { languages: ["en", "klingon"] } }),
      400,
      "invalid_request",
    );
    expect(unknown.details).toEqual([
      { path: "languages.1", message: expect.stringContaining('"klingon" is not a language we know') },
    ]);
    const conflict = expectError(
      await call("/api/brands", { method: "POST", json: { name: "X", language: "de", languages: ["en"] } }),
      400,
      "invalid_request",
    );
    expect(conflict.details).toEqual([{ path: "language", message: expect.stringContaining('"de"') }]);
  });
});

describe("one brief, a post per language", () => {
  it("keeps the default: one post in the main language, its own group", async () => {
    const response = await call("/api/content/create", {
      method: "POST",
      json: { brandId, channel: "telegram", goal: "announcement", topic: TOPIC },
    });
    expect(response.status, response.text).toBe(201);
    const post = generatedPost.parse(response.body);
    expect(post).toMatchObject({ language: "en", groupId: post.postId });
    expect(post.versions.map((version) => version.postId)).toEqual([post.postId]);
  });

  it("writes each language, links them as a group, and regenerating one language leaves the other", async () => {
    const response = await call("/api/content/create", {
      method: "POST",
      // A fixed seed: a short Spanish draft can read as Portuguese to the detector with one of the phrase
      // combinations (1 in 250 drafts here), and the check must not depend on the draw.
      json: {
        brandId,
        channel: "telegram",
        goal: "announcement",
        topic: TOPIC,
        languages: ["en", "es"],
        seed: 7,
      },
    });
    expect(response.status, response.text).toBe(201);
    const post = generatedPost.parse(response.body);
    const [en, es] = post.versions;
    expect([en.language, es.language]).toEqual(["en", "es"]);
    expect(new Set([en.groupId, es.groupId])).toEqual(new Set([post.postId]));
    // By function words: franc takes a few lines of Spanish with the brand's English words for Portuguese.
    expect(languageByStopWords(es.caption.replace(TOPIC, "")), es.caption).toBe("es");
    expect(languageByStopWords(en.caption.replace(TOPIC, "")), en.caption).toBe("en");

    const again = await call("/api/content/create", {
      method: "POST",
      json: {
        brandId,
        channel: "telegram",
        goal: "announcement",
        topic: TOPIC,
        languages: ["es"],
        groupId: post.groupId,
        seed: es.generation.seed + 1,
      },
    });
    expect(again.status, again.text).toBe(201);
    expect(again.body).toMatchObject({ language: "es", groupId: post.groupId });
    expect(again.body.versions).toHaveLength(1);
    const english = await call(`/api/posts/${en.postId}`);
    expect(english.body.caption).toBe(en.caption);
  });

  it("refuses a language the brand does not speak (400), one the local model cannot write (422), and a foreign group (404)", async () => {
    const notSpoken = expectError(
      await call("/api/content/create", {
        method: "POST",
        json: { brandId, channel: "telegram", goal: "announcement", topic: TOPIC, languages: ["de"] },
      }),
      400,
      "invalid_request",
    );
    expect(notSpoken.details).toEqual([{ path: "languages.0", message: expect.stringContaining("en, es") }]);

    await call(`/api/brands/${brandId}`, { method: "PATCH", json: { languages: ["en", "es", "ja"] } });
    const unsupported = expectError(
      await call("/api/content/create", {
        method: "POST",
        json: { brandId, channel: "telegram", goal: "announcement", topic: TOPIC, languages: ["en", "ja"] },
      }),
      422,
      "language_unsupported",
    );
    expect(unsupported.details).toEqual({ languages: ["ja"], supported: ["en", "es", "de", "fr", "pt"] });
    expect(unsupported.message).toContain("Japanese (ja)");
    await call(`/api/brands/${brandId}`, { method: "PATCH", json: { languages: ["en", "es"] } });

    const other = await newUser(server.url);
    const theirs = await api("/api/brands", {
      server: server.url,
      token: other.token,
      method: "POST",
      json: { name: "Theirs", tone: "calm", voice: "plain" },
    });
    const theirPost = await api("/api/content/create", {
      server: server.url,
      token: other.token,
      method: "POST",
      json: { brandId: theirs.body.brandId, channel: "telegram", goal: "announcement", topic: TOPIC },
    });
    expectError(
      await call("/api/content/create", {
        method: "POST",
        json: {
          brandId,
          channel: "telegram",
          goal: "announcement",
          topic: TOPIC,
          groupId: theirPost.body.groupId,
        },
      }),
      404,
      "not_found",
    );
  });

  it("streams one language at a time", async () => {
    expectError(
      await call("/api/content/create/stream", {
        method: "POST",
        json: { brandId, channel: "telegram", goal: "announcement", topic: TOPIC, languages: ["en", "es"] },
      }),
      400,
      "invalid_request",
    );
  });
});

describe("channels speak a language, and Publish all languages sends each version to its own", () => {
  it("connects channels in the brand's languages and publishes each version only to its language's channel", async () => {
    const bot = telegram.addBot("lingua_bot");
    const enChat = telegram.addChannel({
      title: "Lingua EN",
      username: "lingua_en",
      admins: [{ token: bot }],
    });
    const esChat = telegram.addChannel({
      title: "Lingua ES",
      username: "lingua_es",
      admins: [{ token: bot }],
    });
    const en = await call("/api/channels", {
      method: "POST",
      json: { brandId, channel: "telegram", botToken: bot, chatId: String(enChat) },
    });
    expect(en.status, en.text).toBe(201);
    expect(channelConnection.parse(en.body).language).toBe("en");
    const es = await call("/api/channels", {
      method: "POST",
      json: { brandId, channel: "telegram", botToken: bot, chatId: String(esChat) },
    });
    expectError(
      await call(`/api/channels/${es.body.channelId}`, { method: "PATCH", json: { language: "fr" } }),
      400,
      "invalid_request",
    );
    const changed = await call(`/api/channels/${es.body.channelId}`, {
      method: "PATCH",
      json: { language: "ES" },
    });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.language).toBe("es");

    const created = await call("/api/content/create", {
      method: "POST",
      json: { brandId, channel: "telegram", goal: "announcement", topic: TOPIC, languages: ["en", "es"] },
    });
    const [enPost, esPost] = created.body.versions;
    const edited = await call(`/api/posts/${esPost.postId}`, {
      method: "PATCH",
      json: { caption: "¡Nuestra mezcla de otoño llega la semana que viene a todas las cafeterías!" },
    });
    expect(edited.status, edited.text).toBe(200);

    const published = await call(`/api/posts/${enPost.postId}/publications/all-languages`, {
      method: "POST",
      json: {},
    });
    expect(published.status, published.text).toBe(202);
    const result = publishAllLanguagesResponse.parse(published.body);
    expect(result.unmatched).toEqual([]);
    expect(result.items.map((item) => [item.language, item.channelId, item.error])).toEqual([
      ["en", en.body.channelId, null],
      ["es", es.body.channelId, null],
    ]);
    await waitFor(
      () =>
        telegram.messages.filter((message) => message.chatId === enChat || message.chatId === esChat)
          .length >= 2,
      { timeoutMs: 30_000, what: "both channels' messages" },
    );
    const toEn = telegram.messages.filter((message) => message.chatId === enChat);
    const toEs = telegram.messages.filter((message) => message.chatId === esChat);
    expect(toEn).toHaveLength(1);
    expect(toEs).toHaveLength(1);
    expect(toEs[0].text).toContain("¡Nuestra mezcla de otoño llega");
    expect(toEn[0].text).toContain(enPost.caption.split("\n")[0]);
    expect(toEn[0].text).not.toContain("otoño");
  });
});
