import { generateText, Output, streamText } from "ai";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DEMO_BRAND } from "@/db/seed";
import { LocalPostModel } from "@/lib/ai/local/local-model";
import { readBrandPrompt } from "@/lib/ai/local/read-brand-prompt";
import { topicForms } from "@/lib/ai/local/topic";
import { chooseTextModel } from "@/lib/ai/model-choice";
import { type BrandVoice, buildBrandPrompt } from "@/lib/brands/brand-prompt";
import { CHANNELS, type Channel, GOALS, type Goal } from "@/lib/contracts/posts";
import { briefPrompt } from "@/lib/posts/brief-prompt";
import { type DraftOutput, draftOutput } from "@/lib/posts/draft-output";
import { briefFor } from "./support/post-fixtures";

const model = new LocalPostModel("brand-studio-local-1");
const PRODUCT = "our new Ethiopian single-origin espresso, roasted in small batches";
const NEWS = "We are opening a second café in Shoreditch on May 3";

async function write({
  channel,
  goal,
  topic = PRODUCT,
  seed = 1,
  brand = DEMO_BRAND,
  toneOverride,
  assets = [],
}: {
  channel: Channel;
  goal: Goal;
  topic?: string;
  seed?: number;
  brand?: BrandVoice;
  toneOverride?: string;
  assets?: Parameters<typeof briefFor>[3];
}) {
  const result = await generateText({
    model,
    system: buildBrandPrompt(brand, { toneOverride }),
    prompt: briefPrompt(briefFor(channel, goal, topic, assets)),
    output: Output.object({ schema: draftOutput }),
    seed,
  });
  return { ...result.output, usage: result.usage, finishReason: result.finishReason };
}

const paragraphs = (post: DraftOutput) => post.caption.split("\n\n");
const firstLine = (post: DraftOutput) => post.caption.split("\n")[0];
const lastParagraph = (post: DraftOutput) => paragraphs(post).at(-1) ?? "";
const EMOJI = /\p{Extended_Pictographic}/u;

describe("the local model", () => {
  it("is the model when no OpenAI settings exist", () => {
    const saved = { key: process.env.OPENAI_API_KEY, url: process.env.OPENAI_BASE_URL };
    delete process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_BASE_URL;
    try {
      expect(chooseTextModel()).toMatchObject({ provider: "local", moderation: false });
    } finally {
      if (saved.key) process.env.OPENAI_API_KEY = saved.key;
      if (saved.url) process.env.OPENAI_BASE_URL = saved.url;
    }
  });

  it("answers generateText with a structured draft, a finish reason and token usage", async () => {
    const post = await write({ channel: "linkedin", goal: "awareness" });
    expect(draftOutput.safeParse(post).success).toBe(true);
    expect(post.finishReason).toBe("stop");
    expect(post.usage.inputTokens).toBeGreaterThan(100);
    expect(post.usage.outputTokens).toBeGreaterThan(20);
  });

  it("streams the same caption it generates", async () => {
    const system = buildBrandPrompt(DEMO_BRAND);
    const prompt = briefPrompt(briefFor("telegram", "traffic", PRODUCT));
    const stream = streamText({ model, system, prompt, seed: 7 });
    let streamed = "";
    for await (const delta of stream.textStream) streamed += delta;
    const generated = await generateText({ model, system, prompt, seed: 7 });
    expect(streamed).toBe(generated.text);
    expect(streamed.length).toBeGreaterThan(50);
  });

  it("is deterministic for a brief and seed, and the next seed changes the hook and the call to action", async () => {
    for (const channel of CHANNELS) {
      for (const goal of GOALS) {
        const a = await write({ channel, goal, seed: 41 });
        expect(await write({ channel, goal, seed: 41 })).toEqual(a);
        const b = await write({ channel, goal, seed: 42 });
        expect(firstLine(b)).not.toBe(firstLine(a));
        expect(lastParagraph(b)).not.toBe(lastParagraph(a));
      }
    }
  });

  it("opens on the topic, in every channel and goal", async () => {
    for (const channel of CHANNELS) {
      for (const goal of GOALS) {
        for (const topic of [PRODUCT, NEWS]) {
          const post = await write({ channel, goal, topic, seed: 3 });
          expect(firstLine(post).toLowerCase()).toContain(topic.slice(4, 30).toLowerCase());
        }
      }
    }
  });

  it("never says 'Meet' or 'Treat yourself' to a topic that is a sentence", async () => {
    for (let seed = 0; seed < 8; seed++) {
      const post = await write({ channel: "linkedin", goal: "sales", topic: NEWS, seed });
      expect(firstLine(post)).not.toMatch(/^Meet we|Treat yourself: we/i);
    }
  });

  it("asks for the click, the sign-up or the order for traffic, leads and sales; awareness does not sell", async () => {
    const asks: Record<string, RegExp> = {
      traffic: /read|link|details|look|story/i,
      leads: /sign up|get in touch|message|join|DM/i,
      sales: /order|shop|get yours/i,
    };
    const link = { type: "link" as const, url: "https://northwind.example/espresso" };
    for (const channel of CHANNELS) {
      for (let seed = 0; seed < 3; seed++) {
        for (const goal of ["traffic", "leads", "sales"] as const) {
          const post = await write({ channel, goal, seed, assets: [link] });
          expect(lastParagraph(post)).toMatch(asks[goal]);
          if (channel === "instagram") expect(lastParagraph(post)).toMatch(/bio|DM/);
          else if (goal !== "leads" || !/DM|message/.test(lastParagraph(post))) {
            expect(lastParagraph(post)).toContain(link.url);
          }
        }
        const awareness = await write({ channel, goal: "awareness", seed });
        expect(awareness.caption).not.toMatch(/\b(order|buy|shop|sign up|price|discount)\b/i);
      }
    }
  });

  it("lays the post out for the channel", async () => {
    for (let seed = 0; seed < 6; seed++) {
      const linkedin = await write({ channel: "linkedin", goal: "leads", seed });
      expect(paragraphs(linkedin).length).toBeGreaterThanOrEqual(3);
      for (const paragraph of paragraphs(linkedin)) {
        const sentences = paragraph.split("\n").filter((line) => !line.startsWith("→"));
        expect(sentences.join(" ").match(/[.!?](\s|$)/g)?.length ?? 0).toBeLessThanOrEqual(2);
      }

      const instagram = await write({ channel: "instagram", goal: "engagement", seed });
      expect(firstLine(instagram).length).toBeLessThanOrEqual(125);
      expect(instagram.caption.split("\n")[1]).toBe("");

      const telegram = await write({ channel: "telegram", goal: "announcement", seed });
      expect(firstLine(telegram).length).toBeLessThanOrEqual(125);
      expect(paragraphs(telegram).length).toBeLessThanOrEqual(3);
      expect(telegram.caption.length).toBeLessThan(600);
    }
  });

  it("writes in the brand: its name and values appear, its do list shapes lines, the tone picks emoji", async () => {
    const linkedinPosts = await Promise.all(
      [0, 1, 2].map((seed) => write({ channel: "linkedin", goal: "awareness", seed })),
    );
    const all = linkedinPosts.map((post) => post.caption).join("\n");
    expect(all).toMatch(/Northwind Coffee/);
    expect(all).toMatch(/fair trade/i);
    expect(all).toMatch(/We'd love to welcome you/); // do: "invite people into the café"
    expect(all).not.toMatch(EMOJI); // LinkedIn stays plain

    const warm = await write({ channel: "instagram", goal: "announcement" });
    expect(warm.caption).toMatch(EMOJI);
    const formal = await write({
      channel: "instagram",
      goal: "announcement",
      toneOverride: "formal, precise and professional",
    });
    expect(formal.caption).not.toMatch(EMOJI);
    expect(formal.caption).not.toContain("!");
  });

  it("keeps to the don't list it understands", async () => {
    const brand = {
      ...DEMO_BRAND,
      dontList: ["use emoji", "use exclamation marks", "stuff posts with hashtags"],
    };
    for (let seed = 0; seed < 4; seed++) {
      const post = await write({ channel: "instagram", goal: "announcement", brand, seed });
      expect(post.caption).not.toMatch(EMOJI);
      expect(post.caption).not.toContain("!");
      expect(post.hashtags.length).toBeLessThanOrEqual(3);
    }
  });

  it("draws hashtags from the brand's defaults and the topic", async () => {
    const post = await write({ channel: "instagram", goal: "awareness" });
    expect(post.hashtags.slice(0, 2)).toEqual(["#NorthwindCoffee", "#SpecialtyCoffee"]);
    // Topic phrases in CamelCase, and a name on its own; never a plain single word.
    expect(post.hashtags.slice(2)).toEqual(["#SmallBatches", "#SingleOriginEspresso", "#Ethiopian"]);
    expect(post.hashtags.length).toBeLessThanOrEqual(5);
  });

  it("plans media for the channel with alt text, and uses the marketer's own images first", async () => {
    for (let seed = 0; seed < 4; seed++) {
      const instagram = await write({ channel: "instagram", goal: "engagement", seed });
      expect(instagram.mediaPlan.format).not.toBe("text_only");
      for (const item of instagram.mediaPlan.items) {
        expect(["4:5", "9:16"]).toContain(item.aspectRatio);
        expect(item.altText.length).toBeGreaterThan(10);
      }
    }
    const withPhotos = await write({
      channel: "linkedin",
      goal: "sales",
      assets: [
        { type: "image", url: "https://cdn.example/a.jpg", description: "barista pouring a flat white" },
        { type: "image", url: "https://cdn.example/b.jpg", description: "bags of beans on a shelf" },
      ],
    });
    expect(withPhotos.mediaPlan.format).toBe("carousel");
    expect(withPhotos.mediaPlan.items.map((item) => item.altText)).toEqual([
      "Barista pouring a flat white.",
      "Bags of beans on a shelf.",
    ]);
  });
});

describe("topicForms", () => {
  it("keeps a short topic whole and cuts a long one at a comma or a word, never on a dangling word", () => {
    expect(topicForms("How we pick the farms our beans come from").title).toBe(
      "How we pick the farms our beans come from",
    );
    expect(topicForms(PRODUCT).title).toBe("Our new Ethiopian single-origin espresso");
    // Cut at 80 characters, "… grinder for the" would dangle; the words that lead nowhere go.
    const long = `A guide to brewing better espresso at home with a small grinder for the ${"x".repeat(20)}`;
    expect(topicForms(long).short).toBe("A guide to brewing better espresso at home with a small grinder");
    expect(topicForms("why we switched to oat milk: the full story").short).toBe(
      "Why we switched to oat milk",
    );
  });
});

describe("readBrandPrompt", () => {
  const line = fc
    .string({ minLength: 1, maxLength: 40 })
    .map((text) => text.replace(/[\n,"]/g, " ").trim())
    .filter((text) => text.length > 0 && !text.startsWith("-"));
  const word = fc.stringMatching(/^[a-z]{3,12}$/);

  it("reads back every part of the brand that buildBrandPrompt writes", () => {
    fc.assert(
      fc.property(
        fc.record({
          name: line,
          tone: line,
          voice: line,
          audience: line,
          values: fc.uniqueArray(line, { maxLength: 4 }),
          doList: fc.uniqueArray(line, { maxLength: 4 }),
          dontList: fc.uniqueArray(line, { maxLength: 4 }),
          bannedWords: fc.uniqueArray(word, { maxLength: 5 }),
          defaultHashtags: fc.uniqueArray(
            word.map((tag) => `#${tag}`),
            { maxLength: 3 },
          ),
        }),
        (fields) => {
          const brand: BrandVoice = { ...fields, language: "en" };
          const read = readBrandPrompt(buildBrandPrompt(brand));
          expect(read).toEqual({
            name: brand.name,
            tone: brand.tone,
            voice: brand.voice,
            audience: brand.audience,
            values: brand.values,
            doList: brand.doList,
            dontList: brand.dontList,
            bannedWords: brand.bannedWords,
            hashtags: brand.defaultHashtags,
          });
        },
      ),
    );
  });
});
