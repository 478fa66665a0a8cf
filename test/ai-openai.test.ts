import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { errorEnvelope } from "@/lib/contracts/common";
import { post as postSchema } from "@/lib/contracts/posts";
import { channelRuleIssues } from "@/lib/posts/channel-rules";
import { signInAsDemo } from "./support/auth";
import { defaultDraft, type FakeOpenAI, startFakeOpenAI } from "./support/fake-openai";
import { api } from "./support/http";
import { demoBrandId } from "./support/post-fixtures";
import { startTestServer, type TestServer } from "./support/test-server";

const TOPIC = "Our new Ethiopian single-origin espresso, roasted in small batches";
const TIMEOUT_MS = 1500;

let fake: FakeOpenAI;
let server: TestServer;
let token: string;
let brandId: string;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  server = await startTestServer({
    env: {
      OPENAI_BASE_URL: fake.url,
      OPENAI_API_KEY: "sk-fake-test-key",
      OPENAI_MODEL: "gpt-fake",
      AI_TIMEOUT_MS: String(TIMEOUT_MS),
    },
  });
  token = (await signInAsDemo(server.url)).accessToken;
  brandId = await demoBrandId(api, token, server.url);
});

afterAll(async () => {
  await server?.stop();
  await fake?.close();
});

beforeEach(() => fake.reset());

const generate = (body: Record<string, unknown> = {}) =>
  api("/api/content/create", {
    server: server.url,
    method: "POST",
    token,
    json: { brandId, channel: "instagram", goal: "traffic", topic: TOPIC, ...body },
  });

async function postCount() {
  const page = await api(`/api/posts?brandId=${brandId}&limit=100`, { server: server.url, token });
  expect(page.status).toBe(200);
  return page.body.items.length as number;
}

function expectError(response: Awaited<ReturnType<typeof api>>, status: number, code: string) {
  expect(response.status, response.text).toBe(status);
  const { error } = errorEnvelope.parse(response.body);
  expect(error.code).toBe(code);
  return error;
}

describe("generation through an OpenAI-compatible server", () => {
  it("reports the provider in the health check", async () => {
    const health = await api("/api/health", { server: server.url });
    expect(health.body.checks.ai).toBe("openai-compatible");
  });

  it("sends the brand prompt and the brief, and saves the model's draft with its usage", async () => {
    const response = await generate({ seed: 77, toneOverride: "playful and light" });
    expect(response.status, response.text).toBe(201);
    const post = postSchema.parse(response.body);
    const expected = defaultDraft({ channel: "instagram", goal: "traffic", topic: TOPIC });
    expect(post.caption).toBe(expected.caption);
    expect(post.hashtags).toEqual(expected.hashtags);
    expect(post.mediaPlan.items[0]).toEqual({
      type: "image",
      description: expected.mediaPlan.items[0].description,
      altText: expected.mediaPlan.items[0].altText,
      aspectRatio: "4:5",
      // A new draft's image item arrives with the brand's card (the brand is on cards, the default).
      imageUrl: expect.stringMatching(/^\/media\/posts\/pst_[\w-]+\/media\/[\w-]+\.jpg\?exp=/),
      imageJob: null,
    });
    expect(post.generation).toMatchObject({
      provider: "openai-compatible",
      model: "gpt-fake",
      seed: 77,
      inputTokens: 321,
      outputTokens: 123,
    });

    const [chat] = fake.chatRequests();
    expect(fake.chatRequests()).toHaveLength(1);
    expect(chat.headers.authorization).toBe("Bearer sk-fake-test-key");
    expect(chat.body.model).toBe("gpt-fake");
    expect(chat.body.seed).toBe(77);
    expect(chat.body.response_format.type).toBe("json_schema");
    const [system, user] = chat.body.messages;
    expect(system.role).toBe("system");
    const context = await api(`/api/brands/${brandId}/context`, { server: server.url, token });
    expect(system.content).toBe(context.body.prompt.replace(/^Tone: .*$/m, "Tone: playful and light"));
    expect(user.role).toBe("user");
    expect(user.content).toContain(`Topic: ${TOPIC}`);
    expect(user.content).toContain("<brief>");

    // The brief is moderated before the model runs, the draft after.
    const moderated = fake.moderationRequests().map((request) => request.body.input.join("\n"));
    expect(moderated).toHaveLength(2);
    expect(moderated[0]).toContain(TOPIC);
    expect(moderated[1]).toContain(expected.caption);
  });

  it("streams the model's draft as the model writes it (Chat Completions over server-sent events), and saves it once", async () => {
    // 200 tokens a second (half a second for the draft; this file's AI_TIMEOUT_MS is short): the stream
    // sends the partial draft at most every 50 ms, so a model that answers at once would give one partial.
    fake.state.pace = { firstTokenMs: 0, tokensPerSecond: 200, answerMs: 0 };
    const response = await fetch(`${server.url}/api/content/create/stream`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ brandId, channel: "instagram", goal: "traffic", topic: TOPIC, seed: 78 }),
    });
    expect(response.status).toBe(200);
    const events = (await response.text())
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line));
    const expected = defaultDraft({ channel: "instagram", goal: "traffic", topic: TOPIC });
    const done = events.at(-1);
    expect(done.type, JSON.stringify(done)).toBe("done");
    expect(done.post.caption).toBe(expected.caption);
    expect(done.post.generation).toMatchObject({
      provider: "openai-compatible",
      model: "gpt-fake",
      seed: 78,
      // The usage chunk at the stream's end.
      inputTokens: 321,
      outputTokens: 123,
    });
    // The caption grows event by event, each partial a prefix of the next.
    const captions = events
      .filter((event) => event.type === "partial" && typeof event.draft.caption === "string")
      .map((event) => event.draft.caption as string);
    expect(captions.length).toBeGreaterThan(1);
    for (let i = 1; i < captions.length; i++) expect(captions[i].startsWith(captions[i - 1])).toBe(true);
    expect(captions.at(-1)).toBe(expected.caption);
    const chats = fake.chatRequests();
    expect(chats).toHaveLength(1);
    expect(chats[0].body.stream).toBe(true);
    expect(fake.firstTokens.map((token) => token.topic)).toEqual([TOPIC]);
    const saved = await api(`/api/posts/${done.post.postId}`, { server: server.url, token });
    expect(saved.body.caption).toBe(expected.caption);
  });

  it("starts a streamed draft over when the model's streamed answer is not a draft, and says so", async () => {
    fake.state.chat = { kind: "malformed" };
    fake.state.pace = { firstTokenMs: 0, tokensPerSecond: 200, answerMs: 0 };
    const response = await fetch(`${server.url}/api/content/create/stream`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ brandId, channel: "instagram", goal: "traffic", topic: TOPIC }),
    });
    expect(response.status).toBe(200);
    const events = (await response.text())
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line));
    // Each attempt's half draft showed as it came, then the next attempt started over, and nothing was saved.
    expect(events.filter((event) => event.type === "retry").map((event) => event.attempt)).toEqual([1, 2]);
    const captions = events.map((event) => event.type === "partial" && event.draft.caption).filter(Boolean);
    expect(captions.at(-1)).toContain("Half a draft");
    expect(events.at(-1)).toMatchObject({ type: "error", error: { code: "generation_failed" } });
    expect(fake.chatRequests()).toHaveLength(3);
  });

  it("repairs a draft that breaks the channel's rules instead of returning it", async () => {
    fake.state.chat = {
      kind: "draft",
      draft: (brief) => ({
        caption: `${brief.topic}\n\n${"A long paragraph that goes on and on. ".repeat(40)}\n\nRead more at the link.\n#Inline #Tags`,
        hashtags: ["coffee", "#Coffee", "#cold brew", "#a", "#b", "#c", "#d", "#e"],
        mediaPlan: {
          format: "carousel",
          items: [
            { type: "image", description: "Cover", altText: "", aspectRatio: "16:9", overlayText: "Hi" },
          ],
        },
      }),
    };
    const response = await generate({ channel: "telegram" });
    expect(response.status, response.text).toBe(201);
    const post = postSchema.parse(response.body);
    expect(channelRuleIssues("telegram", post)).toEqual([]);
    expect(post.caption.length).toBeLessThanOrEqual(1024);
    expect(post.caption.startsWith(TOPIC)).toBe(true);
    expect(post.caption.endsWith("Read more at the link.")).toBe(true);
    expect(post.hashtags).toEqual(["#coffee", "#coldbrew", "#a", "#b", "#c"]);
    expect(post.mediaPlan).toEqual({
      format: "single_image",
      items: [
        {
          type: "image",
          description: "Cover",
          altText: "Cover",
          aspectRatio: "16:9",
          overlayText: "Hi",
          imageUrl: expect.stringMatching(/^\/media\/posts\//),
          imageJob: null,
        },
      ],
    });
  });

  it.each([
    ["answers 500", { kind: "status", status: 500 } as const],
    ["times out", { kind: "hang" } as const],
    ["returns malformed JSON", { kind: "malformed" } as const],
  ])(
    "answers generation_failed, after bounded retries, when the model %s; nothing is saved",
    async (_, chat) => {
      const before = await postCount();
      fake.state.chat = chat;
      const started = Date.now();
      const error = expectError(await generate(), 502, "generation_failed");
      expect(error.retryable).toBe(true);
      expect(fake.chatRequests()).toHaveLength(3);
      expect(Date.now() - started).toBeLessThan(3 * TIMEOUT_MS + 5000);
      expect(await postCount()).toBe(before);
    },
  );

  it("answers moderation_required when the provider flags the brief, without calling the model", async () => {
    const before = await postCount();
    fake.state.flag = /sword fight/i;
    fake.state.flagCategories = ["violence"];
    const error = expectError(
      await generate({ topic: "A sword fight breaks out at the café opening" }),
      422,
      "moderation_required",
    );
    expect(error.details).toEqual({ stage: "brief", categories: ["violence"], terms: [] });
    expect(error.message).toMatch(/violence/);
    expect(fake.chatRequests()).toHaveLength(0);
    expect(await postCount()).toBe(before);
  });

  it("answers moderation_required when the provider flags every draft, and saves nothing", async () => {
    const before = await postCount();
    fake.state.flag = /here is what you need to know/i;
    fake.state.flagCategories = ["harassment"];
    const error = expectError(await generate(), 422, "moderation_required");
    expect(error.details).toEqual({ stage: "output", categories: ["harassment"], terms: [] });
    expect(fake.chatRequests()).toHaveLength(3);
    expect(await postCount()).toBe(before);
  });

  it("answers generation_failed when the moderation service is down; nothing is saved", async () => {
    const before = await postCount();
    fake.state.moderationStatus = 503;
    const error = expectError(await generate(), 502, "generation_failed");
    expect(error.retryable).toBe(true);
    expect(fake.chatRequests()).toHaveLength(0);
    expect(await postCount()).toBe(before);
  });
});
