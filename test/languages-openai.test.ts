import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generatedPost } from "@/lib/contracts/posts";
import { newUser } from "./support/auth";
import { defaultDraft, type FakeOpenAI, startFakeOpenAI } from "./support/fake-openai";
import { api } from "./support/http";
import { startTestServer, type TestServer } from "./support/test-server";

// One brief in three languages against an OpenAI-compatible server (the local fake): a call per language,
// each prompt naming its language and carrying the brand's rules.

let fake: FakeOpenAI;
let server: TestServer;
let token: string;
let brandId: string;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  server = await startTestServer({
    env: { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: "sk-fake-test-key", OPENAI_MODEL: "gpt-fake" },
  });
  ({ token } = await newUser(server.url));
  const brand = await api("/api/brands", {
    server: server.url,
    token,
    method: "POST",
    json: {
      name: "Polyglot Roasters",
      tone: "warm",
      voice: "short sentences",
      languages: ["en", "ja", "ar"],
      bannedWords: ["cheap"],
      dontList: ["make health claims"],
    },
  });
  expect(brand.status, brand.text).toBe(201);
  brandId = brand.body.brandId;
});

afterAll(async () => {
  await server?.stop();
  await fake?.close();
});

const systemOf = (body: { messages: { role: string; content: unknown }[] }) =>
  body.messages
    .filter((message) => message.role === "system")
    .map((message) => String(message.content))
    .join("\n");
const userOf = (body: { messages: { role: string; content: unknown }[] }) =>
  body.messages
    .filter((message) => message.role === "user")
    .map((message) => JSON.stringify(message.content))
    .join("\n");

describe("a hosted model writes each language", () => {
  it("gives three drafts with the right language, each prompt naming it with the brand's rules", async () => {
    fake.reset();
    // The fake answers in the language the brief block asks for, as a model following the prompt would.
    fake.state.chat = {
      kind: "draft",
      draft: (brief) => {
        const language = (brief as { language?: string }).language;
        const caption = {
          en: "Our autumn blend is here.",
          ja: "秋のブレンドが登場しました。",
          ar: "وصل مزيج الخريف.",
        }[language ?? "en"];
        return { ...defaultDraft(brief), caption };
      },
    };
    const response = await api("/api/content/create", {
      server: server.url,
      token,
      method: "POST",
      json: {
        brandId,
        channel: "linkedin",
        goal: "awareness",
        topic: "Our autumn seasonal blend arrives next week",
        languages: ["en", "ja", "ar"],
      },
    });
    expect(response.status, response.text).toBe(201);
    const post = generatedPost.parse(response.body);
    expect(post.versions.map((version) => [version.language, version.caption])).toEqual([
      ["en", "Our autumn blend is here."],
      ["ja", "秋のブレンドが登場しました。"],
      ["ar", "وصل مزيج الخريف."],
    ]);
    expect(new Set(post.versions.map((version) => version.groupId))).toEqual(new Set([post.postId]));

    const prompts = fake
      .chatRequests()
      .map((request) => ({ system: systemOf(request.body), user: userOf(request.body) }));
    expect(prompts).toHaveLength(3);
    for (const [language, name] of [
      ["en", "Write in English."],
      ["ja", "Write in Japanese (ja)."],
      ["ar", "Write in Arabic (ar)."],
    ]) {
      const prompt = prompts.find((item) => item.system.includes(name));
      expect(prompt, language).toBeDefined();
      expect(prompt?.system).toContain("Banned words (never use them, in any form): cheap");
      expect(prompt?.system).toContain("- make health claims");
      expect(prompt?.user).toContain(`\\"language\\":\\"${language}\\"`);
      if (language !== "en") expect(prompt?.system).toMatch(/hashtags.*in (Japanese|Arabic) \((ja|ar)\)/);
    }
  });
});
