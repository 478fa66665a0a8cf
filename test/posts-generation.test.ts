import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { TextModelChoice } from "@/lib/ai/model-choice";
import { CHANNELS, type Channel, type GeneratePostInput, GOALS, type Goal } from "@/lib/contracts/posts";
import { ApiError } from "@/lib/errors/api-error";
import { channelRuleIssues } from "@/lib/posts/channel-rules";
import { POLICY_TERMS } from "@/lib/posts/content-policy";
import { draftPost } from "@/lib/posts/generate-post-draft";
import { findTerms, findTermsInHashtag } from "@/lib/text/term-match";
import { brandRow } from "./support/post-fixtures";

const local: TextModelChoice = {
  provider: "local",
  model: "brand-studio-local-1",
  moderation: false,
  timeoutMs: 5000,
};

function input(overrides: Partial<GeneratePostInput> = {}): GeneratePostInput {
  return {
    brandId: "brd_testbrand0001",
    channel: "linkedin",
    goal: "awareness",
    topic: "our new Ethiopian single-origin espresso, roasted in small batches",
    // In process with no database: learning from results reads one (test/insights-learning.test.ts).
    learnFromResults: false,
    ...overrides,
  };
}

async function failure(promise: Promise<unknown>) {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

/** An independent check for a banned word: the word itself, whole, in any case. */
const containsWord = (text: string, word: string) =>
  new RegExp(`(^|[^\\p{L}\\p{N}_])${word}([^\\p{L}\\p{N}_]|$)`, "iu").test(text);

describe("generate post: the brief and the brand come first", () => {
  it.each([
    ["two words", "espresso launch"],
    ["three short words", "new cold brew"],
    ["padding that trims away", "   espresso    launch   "],
    ["nothing", ""],
  ])("brief_too_short for %s", async (_, topic) => {
    const error = await failure(draftPost({ brand: brandRow(), input: input({ topic }), choice: local }));
    expect(error.code).toBe("brief_too_short");
    expect(error.status).toBe(422);
  });

  it("accepts exactly three words and fifteen characters", async () => {
    const draft = await draftPost({
      brand: brandRow(),
      input: input({ topic: "Fresh cold brew" }),
      choice: local,
    });
    expect(draft.content.caption).toMatch(/cold brew/i);
  });

  it.each([
    ["no tone", { tone: "" }, ["tone"]],
    ["no voice", { voice: "   " }, ["voice"]],
    ["neither", { tone: "", voice: "" }, ["tone", "voice"]],
  ])("brand_context_missing when the brand has %s", async (_, fields, missing) => {
    const error = await failure(draftPost({ brand: brandRow(fields), input: input(), choice: local }));
    expect(error.code).toBe("brand_context_missing");
    expect(error.details).toMatchObject({ missing });
  });

  it("moderation_required for a banned word in the brief, naming it", async () => {
    const error = await failure(
      draftPost({
        brand: brandRow(),
        input: input({ topic: "The cheapest espresso in all of town" }),
        choice: local,
      }),
    );
    expect(error.code).toBe("moderation_required");
    expect(error.details).toEqual({ stage: "brief", categories: ["banned_words"], terms: ["cheap"] });
  });

  it("moderation_required for a term on the built-in policy list, naming its category", async () => {
    const error = await failure(
      draftPost({
        brand: brandRow(),
        input: input({ topic: "Our new espresso, made for people who want cocaine" }),
        choice: local,
      }),
    );
    expect(error.code).toBe("moderation_required");
    expect(error.details).toEqual({ stage: "brief", categories: ["illegal_drugs"], terms: ["cocaine"] });
  });

  it("checks the tone override and asset descriptions too", async () => {
    const error = await failure(
      draftPost({
        brand: brandRow(),
        input: input({
          assets: [{ type: "image", url: "https://cdn.example/a.jpg", description: "a miracle in a cup" }],
        }),
        choice: local,
      }),
    );
    expect(error.details).toMatchObject({ terms: ["miracle"] });
  });
});

// Words the local writer itself uses, so banning them really tests that it writes around them.
const TEMPLATE_WORDS = [
  "details",
  "story",
  "order",
  "today",
  "link",
  "follow",
  "share",
  "coffee",
  "team",
  "love",
  "welcome",
  "news",
  "full",
  "comments",
  "official",
  "craft",
  "community",
  "photo",
  "slide",
  "espresso",
  "worth",
  "talk",
];
const TOPIC_WORDS = [
  "new",
  "espresso",
  "launch",
  "our",
  "winter",
  "menu",
  "community",
  "event",
  "coffee",
  "tasting",
  "workshop",
  "Berlin",
  "single-origin",
  "beans",
  "we",
  "are",
  "opening",
  "a",
  "café",
  "how",
  "to",
  "brew",
  "at",
  "home",
];

const brandArbitrary = fc.record({
  name: fc.constantFrom("Northwind Coffee", "Acme Tools", "Blue Fern Studio", "Kaffee Ost"),
  tone: fc.constantFrom("warm, upbeat and confident", "formal and precise", "playful", "calm and thoughtful"),
  voice: fc.constantFrom("Short sentences, no jargon.", "Like a trusted expert."),
  audience: fc.constantFrom("", "Busy urban professionals", "Engineering leaders at SaaS companies"),
  values: fc.subarray(["craft", "fair trade", "community", "clarity", "speed"]),
  doList: fc.subarray([
    "invite people in",
    "ask a question",
    "tell the story",
    "keep it personal",
    "use emoji",
  ]),
  dontList: fc.subarray(["use emoji", "use exclamation marks", "overuse hashtags", "ask questions"]),
  bannedWords: fc.subarray(TEMPLATE_WORDS, { maxLength: 8 }),
  defaultHashtags: fc.subarray(["#NorthwindCoffee", "#SpecialtyCoffee", "#Crafted", "#Community"]),
});

const briefArbitrary = fc.record({
  channel: fc.constantFrom<Channel>(...CHANNELS),
  goal: fc.constantFrom<Goal>(...GOALS),
  topic: fc
    .array(fc.oneof(fc.constantFrom(...TOPIC_WORDS), fc.string({ minLength: 1, maxLength: 12 })), {
      minLength: 1,
      maxLength: 60,
    })
    .map((words) => words.join(" ").slice(0, 500)),
  seed: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
  withLink: fc.boolean(),
  images: fc.integer({ min: 0, max: 3 }),
});

describe("generate post: properties of every draft", () => {
  it("keeps the channel's rules and never contains a banned word, or refuses the brief for a reason", async () => {
    const outcomes = { drafted: 0, refused: 0 };
    await fc.assert(
      fc.asyncProperty(brandArbitrary, briefArbitrary, async (brandFields, brief) => {
        const brand = brandRow(brandFields);
        const assets: NonNullable<GeneratePostInput["assets"]> = [
          ...(brief.withLink ? [{ type: "link" as const, url: "https://example.com/more" }] : []),
          ...Array.from({ length: brief.images }, (_, index) => ({
            type: "image" as const,
            url: `https://cdn.example/${index}.jpg`,
            description: `photo number ${index + 1} of the shop`,
          })),
        ];
        const request = input({
          channel: brief.channel,
          goal: brief.goal,
          topic: brief.topic,
          seed: brief.seed,
          assets,
        });
        const briefText = [brief.topic, ...assets.map((asset) => asset.description ?? "")].join("\n");
        const words = brief.topic.trim().split(/\s+/).filter(Boolean);
        const tooShort = words.length < 3 || brief.topic.trim().length < 15;
        const flagged =
          findTerms(briefText, brand.bannedWords).length > 0 ||
          Object.values(POLICY_TERMS).some((terms) => findTerms(briefText, terms).length > 0);

        const outcome = await draftPost({ brand, input: request, choice: local }).then(
          (draft) => ({ draft }),
          (error: ApiError) => ({ error }),
        );
        if ("error" in outcome) {
          outcomes.refused++;
          const expected = tooShort ? "brief_too_short" : "moderation_required";
          expect(outcome.error.code).toBe(expected);
          if (expected === "moderation_required") expect(flagged).toBe(true);
          return;
        }
        expect(tooShort || flagged).toBe(false);
        outcomes.drafted++;
        const { content } = outcome.draft;
        expect(channelRuleIssues(brief.channel, content)).toEqual([]);
        const texts = [
          content.caption,
          ...content.mediaPlan.items.flatMap((item) => [
            item.description,
            item.altText,
            item.overlayText ?? "",
          ]),
        ].join("\n");
        for (const word of brand.bannedWords) {
          expect(containsWord(texts, word), `"${word}" in:\n${texts}`).toBe(false);
          for (const tag of content.hashtags) expect(findTermsInHashtag(tag, [word])).toEqual([]);
        }
        expect(findTerms(texts, brand.bannedWords)).toEqual([]);
      }),
      { numRuns: 400 },
    );
    // Both branches ran often enough to mean something.
    expect(outcomes.drafted).toBeGreaterThan(150);
    expect(outcomes.refused).toBeGreaterThan(20);
  });
});
