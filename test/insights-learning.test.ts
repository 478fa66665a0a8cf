import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDatabase, getDb } from "@/db/client";
import { brandMembers, brands, posts, users } from "@/db/schema";
import type { TextModelChoice } from "@/lib/ai/model-choice";
import { getBrandInsights } from "@/lib/analytics/get-brand-insights";
import type { GeneratePostInput } from "@/lib/contracts/posts";
import { newId } from "@/lib/ids";
import { opensWithQuestion, usesEmoji } from "@/lib/insights/post-patterns";
import { rankChannel } from "@/lib/insights/rank-posts";
import { draftPost, generatePostDraft } from "@/lib/posts/generate-post-draft";
import { examplesPrompts } from "@/lib/posts/learn-from-results";
import { migrateInProcess } from "./support/database";
import { type FakeOpenAI, startFakeOpenAI } from "./support/fake-openai";
import { type MeasuredPost, seedMeasuredPosts } from "./support/measured-posts";
import { createTestDatabase } from "./support/test-server";

// The ranking and the drafts run in this process against their own database (PGlite, or a PostgreSQL
// database of its own); the hosted model is the local OpenAI fake, which records the prompt it received.
const saved = { ...process.env };
let dropDatabase: (() => Promise<void>) | undefined;
let fake: FakeOpenAI;
let userId: string;

const local: TextModelChoice = {
  provider: "local",
  model: "brand-studio-local-1",
  moderation: false,
  timeoutMs: 5000,
};
const TOPIC = "our new Ethiopian single-origin espresso, roasted in small batches";

beforeAll(async () => {
  fake = await startFakeOpenAI();
  Object.assign(process.env, {
    DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "bs-learning-")),
    AUTH_SECRET: process.env.AUTH_SECRET ?? "learning-test-secret-0123456789-abcdef",
  });
  if (saved.DATABASE_URL) {
    const database = await createTestDatabase(saved.DATABASE_URL);
    process.env.DATABASE_URL = database.url;
    dropDatabase = database.drop;
  }
  await migrateInProcess();
  userId = newId("usr");
  await (await getDb()).insert(users).values({ id: userId, email: `${userId}@example.test` });
});

afterAll(async () => {
  await closeDatabase();
  await dropDatabase?.();
  fs.rmSync(process.env.DATA_DIR ?? "", { recursive: true, force: true });
  for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
  Object.assign(process.env, saved);
  await fake?.close();
});

async function newBrand(timeZone = "Europe/Berlin") {
  const id = newId("brd");
  await (await getDb()).insert(brands).values({
    id,
    name: "Learning Coffee",
    tone: "warm and plain",
    voice: "short sentences",
    audience: "busy professionals who love good coffee",
    timeZone,
  });
  const [brand] = await (await getDb()).select().from(brands).where(eq(brands.id, id));
  return brand;
}

const input = (brandId: string, overrides: Partial<GeneratePostInput> = {}): GeneratePostInput => ({
  brandId,
  channel: "linkedin",
  goal: "awareness",
  topic: TOPIC,
  seed: 11,
  ...overrides,
});

/** 3 clear winners (a question first, 2 hashtags, no emoji, short), 9 ordinary posts, 1 too young to count. */
function winnersAndOthers(): MeasuredPost[] {
  const winners = [0.09, 0.08, 0.07].map((rate, index) => ({
    caption: `Ever wondered what makes a great morning cup, number ${index + 1}?\n\nWe roast slowly.`,
    hashtags: ["#Coffee", "#Morning"],
    ageHours: 72 + index,
    reach: 1000,
    interactions: Math.round(rate * 1000),
  }));
  const others = Array.from({ length: 9 }, (_, index) => ({
    caption: `☕ Our roastery update number ${index + 1}. ${"We keep working on every batch with care. ".repeat(8)}`,
    hashtags: ["#A", "#B", "#C", "#D", "#E", "#F"],
    ageHours: 100 + index,
    reach: 1000,
    interactions: 10 + index,
  }));
  // Young: the best rate of all, but its numbers are still moving, so it never counts.
  const young = { caption: "Too new to judge?", ageHours: 20, reach: 100, interactions: 90 };
  return [...winners, ...others, young];
}

describe("learning from results", () => {
  it("ranks the channel's posts older than 48 h against the brand's median, best and weakest 3", async () => {
    const brand = await newBrand();
    const ids = await seedMeasuredPosts(brand.id, "linkedin", winnersAndOthers());
    const ranking = await rankChannel(brand, "linkedin");
    expect(ranking).toMatchObject({ enoughData: true, measure: "reach", measuredPosts: 12 });
    expect(ranking.top.map((post) => post.postId)).toEqual(ids.slice(0, 3));
    expect(ranking.bottom.map((post) => post.postId)).toEqual([ids[3], ids[4], ids[5]]);
    // Median of 12 rates: (0.015 + 0.016) / 2.
    expect(ranking.median).toBe(0.0155);
    expect(ranking.top[0]).toMatchObject({ engagementRate: 0.09, relative: 5.81 });
    expect(ranking.patterns?.top).toMatchObject({ hashtags: 2, opening: "question", emoji: false });
    expect(ranking.patterns?.bottom).toMatchObject({ hashtags: 6, opening: "statement", emoji: true });
    // Published 72 h ago, in Berlin's hours.
    const berlinHour = Number(
      new Intl.DateTimeFormat("en-GB", {
        hour: "numeric",
        hourCycle: "h23",
        timeZone: "Europe/Berlin",
      }).format(new Date(Date.now() - 72 * 3_600_000)),
    );
    expect(ranking.top[0].patterns.hour).toBe(berlinHour);
  });

  it("the local model follows the examples: a question first, 2 hashtags, no emoji; the draft stores them", async () => {
    const brand = await newBrand();
    const ids = await seedMeasuredPosts(brand.id, "linkedin", winnersAndOthers());
    const plain = await draftPost({
      brand,
      input: input(brand.id, { learnFromResults: false }),
      choice: local,
    });
    const learned = await draftPost({ brand, input: input(brand.id), choice: local });

    expect(plain.learnedFrom).toMatchObject({ status: "off", posts: [] });
    expect(opensWithQuestion(plain.content.caption)).toBe(false);
    expect(plain.content.hashtags.length).not.toBe(2);

    expect(learned.learnedFrom).toMatchObject({ status: "examples", channel: "linkedin", measure: "reach" });
    expect(learned.learnedFrom?.posts.map((post) => post.postId)).toEqual(ids.slice(0, 3));
    expect(learned.learnedFrom?.posts[0].excerpt).toBe(
      "Ever wondered what makes a great morning cup, number 1? We roast…",
    );
    expect(opensWithQuestion(learned.content.caption)).toBe(true);
    expect(learned.content.hashtags).toHaveLength(2);
    expect(usesEmoji(learned.content.caption)).toBe(false);
    expect(learned.content.caption.length).toBeLessThan(plain.content.caption.length);
  });

  it("follows emoji and a statement opening when the best posts have them", async () => {
    const brand = await newBrand();
    const flipped = winnersAndOthers().map((post, index) =>
      index < 3
        ? { ...post, caption: `✨ Fresh beans landed today, batch ${index + 1}.`, hashtags: ["#Beans"] }
        : post,
    );
    await seedMeasuredPosts(brand.id, "instagram", flipped);
    const learned = await draftPost({
      brand,
      input: input(brand.id, { channel: "instagram", goal: "engagement" }),
      choice: local,
    });
    expect(learned.learnedFrom?.status).toBe("examples");
    expect(usesEmoji(learned.content.caption)).toBe(true);
    expect(opensWithQuestion(learned.content.caption)).toBe(false);
    expect(learned.content.hashtags).toHaveLength(1);
  });

  it("below 10 measured posts: not enough results yet, and the draft is written as before", async () => {
    const brand = await newBrand();
    await seedMeasuredPosts(brand.id, "linkedin", winnersAndOthers().slice(0, 9));
    const ranking = await rankChannel(brand, "linkedin");
    expect(ranking).toMatchObject({
      enoughData: false,
      measuredPosts: 9,
      top: [],
      bottom: [],
      patterns: null,
    });
    const draft = await draftPost({ brand, input: input(brand.id), choice: local });
    const plain = await draftPost({
      brand,
      input: input(brand.id, { learnFromResults: false }),
      choice: local,
    });
    expect(draft.learnedFrom).toEqual({
      status: "not_enough_results",
      channel: "linkedin",
      measure: "reach",
      measuredPosts: 9,
      posts: [],
    });
    expect(draft.content).toEqual(plain.content);
  });

  it("uses views when the platform gives no reach, and says so", async () => {
    const brand = await newBrand();
    await seedMeasuredPosts(
      brand.id,
      "linkedin",
      winnersAndOthers().map(({ reach, ...post }) => ({ ...post, views: reach })),
    );
    const ranking = await rankChannel(brand, "linkedin");
    expect(ranking).toMatchObject({ enoughData: true, measure: "views", measuredPosts: 12 });
  });

  it("sends the examples to a hosted model, and the post and GET post keep what it learned from", async () => {
    const brand = await newBrand();
    const ids = await seedMeasuredPosts(brand.id, "linkedin", winnersAndOthers());
    const hosted: TextModelChoice = {
      provider: "openai-compatible",
      model: "gpt-fake",
      baseURL: fake.url,
      apiKey: "sk-fake",
      moderation: false,
      timeoutMs: 5000,
    };
    fake.reset();
    const learned = await draftPost({ brand, input: input(brand.id), choice: hosted });
    const [request] = fake.chatRequests();
    const user = request.body.messages
      .filter((message: { role: string }) => message.role === "user")
      .map((message: { content: string }) => message.content)
      .join("\n");
    expect(user).toContain(
      "Learn from the brand's own results on LinkedIn (engagement rate: interactions ÷ reach",
    );
    expect(user).toContain(
      "Example 1 (engagement 9.0%, 5.81× the brand's median): 73 characters, 2 hashtags, text only, opens with a question, no emoji",
    );
    expect(user).toContain(
      '"""\nEver wondered what makes a great morning cup, number 1?\n\nWe roast slowly.\n#Coffee #Morning\n"""',
    );
    expect(user).toContain("What its weakest posts have in common, to avoid: ");
    expect(user).toContain("6 hashtags");
    expect(user).toContain("<examples>");
    expect(user.indexOf("<examples>")).toBeLessThan(user.indexOf("<brief>"));
    // The brand context shows the same section, exactly as sent; channels without results show none.
    const shown = await examplesPrompts(brand);
    expect(shown.linkedin).toBeTruthy();
    expect(user).toContain(shown.linkedin);
    expect(shown).toMatchObject({ instagram: null, telegram: null });
    expect(learned.learnedFrom?.posts.map((post) => post.postId)).toEqual(ids.slice(0, 3));

    fake.reset();
    await draftPost({ brand, input: input(brand.id, { learnFromResults: false }), choice: hosted });
    const off = JSON.stringify(fake.chatRequests()[0].body.messages);
    expect(off).not.toContain("Learn from the brand's own results");
    expect(off).not.toContain("<examples>");
  });

  it("saves learned_from with the post", async () => {
    const brand = await newBrand();
    const ids = await seedMeasuredPosts(brand.id, "linkedin", winnersAndOthers());
    const view = await generatePostDraft({
      principal: { userId, credential: "access_token" },
      brand,
      input: input(brand.id),
    });
    expect(view.learnedFrom?.posts.map((post) => post.postId)).toEqual(ids.slice(0, 3));
    const [row] = await (await getDb()).select().from(posts).where(eq(posts.id, view.postId));
    expect(row.learnedFrom).toEqual(view.learnedFrom);
  });

  it("GET insights: per channel, the top and bottom posts with their results and patterns, and enoughData", async () => {
    const brand = await newBrand();
    await (await getDb()).insert(brandMembers).values({ brandId: brand.id, userId, role: "viewer" });
    const ids = await seedMeasuredPosts(brand.id, "linkedin", winnersAndOthers());
    await seedMeasuredPosts(brand.id, "telegram", [{ caption: "One post", ageHours: 80, interactions: 4 }]);
    const insights = await getBrandInsights({
      principal: { userId, credential: "access_token" },
      brandId: brand.id,
    });
    expect(insights).toMatchObject({ brandId: brand.id, timeZone: "Europe/Berlin" });
    expect(insights.channels.map((channel) => channel.channel)).toEqual([
      "telegram",
      "instagram",
      "linkedin",
    ]);
    const linkedin = insights.channels.find((channel) => channel.channel === "linkedin");
    expect(linkedin).toMatchObject({
      enoughData: true,
      measure: "reach",
      measuredPosts: 12,
      medianEngagementRate: 0.0155,
    });
    expect(linkedin?.top.map((post) => post.postId)).toEqual(ids.slice(0, 3));
    expect(linkedin?.top[0]).toMatchObject({
      title: "Ever wondered what makes a great morning cup, number 1? We roast…",
      engagementRate: 0.09,
      reach: 1000,
      interactions: 90,
      patterns: { hashtags: 2, opening: "question", emoji: false, mediaType: "text_only" },
    });
    expect(linkedin?.bottom.map((post) => post.postId)).toEqual([ids[3], ids[4], ids[5]]);
    expect(linkedin?.patterns?.bottom).toMatchObject({ hashtags: 6, emoji: true });
    const telegram = insights.channels.find((channel) => channel.channel === "telegram");
    expect(telegram).toMatchObject({
      enoughData: false,
      measure: "interactions",
      measuredPosts: 1,
      top: [],
      bottom: [],
      patterns: null,
      bestTimes: [],
    });
    const stranger = newId("usr");
    await (await getDb()).insert(users).values({ id: stranger, email: `${stranger}@example.test` });
    await expect(
      getBrandInsights({ principal: { userId: stranger, credential: "access_token" }, brandId: brand.id }),
    ).rejects.toMatchObject({ code: "not_found" });
  });
});
