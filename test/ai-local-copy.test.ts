import { generateText, Output } from "ai";
import { describe, expect, it } from "vitest";
import { DEMO_BRAND } from "@/db/seed";
import { LocalPostModel } from "@/lib/ai/local/local-model";
import { topicMood } from "@/lib/ai/local/topic";
import { type BrandVoice, buildBrandPrompt } from "@/lib/brands/brand-prompt";
import {
  CHANNEL_RULES,
  CHANNELS,
  type Channel,
  GOALS,
  type Goal,
  HASHTAG_PATTERN,
} from "@/lib/contracts/posts";
import { briefPrompt } from "@/lib/posts/brief-prompt";
import { type DraftOutput, draftOutput } from "@/lib/posts/draft-output";
import { briefFor } from "./support/post-fixtures";

// The built-in model's copy, checked for the properties a careful junior copywriter keeps, over 50 briefs:
// 10 topics × 5 brands, across every channel and goal, each written with 4 seeds.

const model = new LocalPostModel("brand-studio-local-1");

const BRANDS: BrandVoice[] = [
  DEMO_BRAND,
  {
    ...DEMO_BRAND,
    name: "Ledgerly",
    tone: "professional, precise and calm",
    voice: "Plain English for finance teams; no jargon.",
    audience: "Finance leads at companies of 50 to 500 people",
    values: ["accuracy", "transparency", "speed"],
    doList: ["use concrete numbers", "ask questions that start a conversation"],
    dontList: ["use emoji", "use exclamation marks"],
    bannedWords: ["revolutionary", "synergy", "disrupt"],
    defaultHashtags: ["#Ledgerly", "#FinanceOps"],
  },
  {
    ...DEMO_BRAND,
    name: "Crumb & Co",
    tone: "playful and warm",
    voice: "Short, cheerful sentences, like a note on the counter.",
    audience: "Neighbours who love a slow Saturday breakfast",
    values: ["real butter", "slow fermentation"],
    doList: ["keep it short", "invite people in"],
    dontList: ["hype things up", "stuff posts with hashtags"],
    bannedWords: ["artisanal", "best"],
    defaultHashtags: ["#CrumbAndCo"],
  },
  {
    ...DEMO_BRAND,
    name: "Forge Strength",
    tone: "upbeat, bold and encouraging",
    voice: "Coach talk: direct, specific, never preachy.",
    audience: "Adults starting strength training",
    values: [],
    doList: ["use concrete numbers", "tell stories from members"],
    dontList: ["make health claims", "use emoji"],
    bannedWords: ["shred", "guaranteed"],
    defaultHashtags: ["#ForgeStrength", "#StrengthTraining"],
  },
  {
    ...DEMO_BRAND,
    name: "Green Streets",
    tone: "warm and hopeful",
    voice: "Neighbourly and personal.",
    audience: "",
    values: ["community", "climate"],
    doList: ["invite volunteers to join", "be personal"],
    dontList: ["use questions"],
    bannedWords: ["charity case"],
    defaultHashtags: ["#GreenStreets"],
  },
];

const TOPICS = [
  "our new Ethiopian single-origin espresso, roasted in small batches",
  "We are opening a second café in Shoreditch on May 3",
  "five tips for brewing better coffee at home",
  "cold brew vs iced coffee: which one wins in summer",
  "how we cut month-end close from 10 days to 3",
  "late night opening hours for the summer",
  "behind the scenes at our bakery at 4am",
  "a free strength workshop for beginners this Saturday",
  "why we switched all our packaging to compostable materials",
  "the best autumn menu with pumpkin sourdough and chai buns",
];

type Brief = { n: number; brand: BrandVoice; topic: string; channel: Channel; goal: Goal };

const BRIEFS: Brief[] = Array.from({ length: 50 }, (_, n) => ({
  n,
  brand: BRANDS[Math.floor(n / 10)],
  topic: TOPICS[n % 10],
  channel: CHANNELS[n % 3],
  goal: GOALS[(n + Math.floor(n / 10)) % 6],
}));

const SEEDS = [1, 2, 3, 4];

async function write(brief: Brief, seed: number): Promise<DraftOutput> {
  const result = await generateText({
    model,
    system: buildBrandPrompt(brief.brand),
    prompt: briefPrompt(briefFor(brief.channel, brief.goal, brief.topic)),
    output: Output.object({ schema: draftOutput }),
    seed,
  });
  return result.output;
}

const EMOJI = /\p{Extended_Pictographic}/u;
const wordPattern = (word: string) =>
  new RegExp(`(^|[^\\p{L}\\p{N}])${word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}($|[^\\p{L}\\p{N}])`, "iu");
const allText = (post: DraftOutput) =>
  [
    post.caption,
    ...post.mediaPlan.items.flatMap((item) => [item.description, item.altText, item.overlayText ?? ""]),
  ].join("\n");
const firstLine = (post: DraftOutput) => post.caption.split("\n")[0];
const closing = (post: DraftOutput) => post.caption.split("\n\n").at(-1) ?? "";
const mentions = (items: string[], pattern: RegExp) => items.some((item) => pattern.test(item));

/** A tag's words: #SingleOriginEspresso → ["Single", "Origin", "Espresso"]. */
const tagWords = (tag: string) => tag.slice(1).match(/\p{Lu}[\p{Ll}\p{N}]*|\p{N}+/gu) ?? [tag.slice(1)];

describe.each(BRIEFS)("brief $n: $channel · $goal · $topic", (brief) => {
  const posts = Promise.all(SEEDS.map((seed) => write(brief, seed)));
  const { brand, topic, channel } = brief;

  it("never uses a banned word, in the caption, the media plan or a hashtag", async () => {
    for (const post of await posts) {
      for (const word of brand.bannedWords) {
        expect(allText(post)).not.toMatch(wordPattern(word));
        for (const tag of post.hashtags) {
          expect(tag.toLowerCase()).not.toContain(word.replace(/\s+/g, "").toLowerCase());
        }
      }
    }
  });

  it("keeps the channel's limits", async () => {
    const rules = CHANNEL_RULES[channel];
    for (const post of await posts) {
      const limit = post.mediaPlan.items.length ? rules.captionLimitWithMedia : rules.captionLimit;
      expect(post.caption.length).toBeLessThanOrEqual(limit);
      expect(post.hashtags.length).toBeLessThanOrEqual(rules.maxHashtags);
      expect(post.caption.trim().length).toBeGreaterThan(40);
    }
  });

  it("takes hashtags from the brand's defaults first, then topic phrases, never a plain single word", async () => {
    const brandTags = brand.defaultHashtags;
    for (const post of await posts) {
      expect(post.hashtags.every((tag) => HASHTAG_PATTERN.test(tag))).toBe(true);
      expect(new Set(post.hashtags.map((tag) => tag.toLowerCase())).size).toBe(post.hashtags.length);
      if (mentions(brand.dontList, /hashtag/i)) expect(post.hashtags.length).toBeLessThanOrEqual(3);
      const leading = Math.min(2, brandTags.length, post.hashtags.length);
      expect(post.hashtags.slice(0, leading)).toEqual(brandTags.slice(0, leading));
      for (const tag of post.hashtags.filter((item) => !brandTags.includes(item))) {
        const words = tagWords(tag);
        // Every word of the tag is a word of the topic.
        for (const word of words) expect(topic.toLowerCase()).toContain(word.toLowerCase());
        if (words.length === 1) {
          // A lone word only when it is a name in the topic (capitalised after its first word).
          const later = topic.split(/\s+/).slice(1);
          expect(later.some((item) => item.replace(/[^\p{L}\p{N}]/gu, "") === words[0])).toBe(true);
        }
      }
    }
  });

  it("honours the do- and don't-lists where they can be checked", async () => {
    for (const post of await posts) {
      if (mentions(brand.doList, /concrete numbers/i)) expect(post.caption).toMatch(/\p{N}/u);
      if (mentions(brand.dontList, /emoji/i) || channel === "linkedin")
        expect(post.caption).not.toMatch(EMOJI);
      if (mentions(brand.dontList, /exclamation|hype/i)) expect(post.caption).not.toContain("!");
      if (mentions(brand.dontList, /hype/i)) expect(post.caption).not.toMatch(/big news/i);
      if (mentions(brand.dontList, /questions/i)) expect(post.caption).not.toMatch(/\?(\s|$)/);
      expect(post.caption).not.toMatch(/\b[A-Z]{5,}\b/); // never all caps ("use all caps" is a common don't)
    }
  });

  it("opens with a hook that fits the topic", async () => {
    for (const post of await posts) {
      const shown = brand.bannedWords.reduce((text, word) => text.replace(wordPattern(word), " "), topic);
      expect(firstLine(post).toLowerCase()).toContain(shown.replace(/\s+/g, " ").slice(4, 24).toLowerCase());
      if (topicMood(topic) !== "debate") {
        expect(post.caption).not.toMatch(/which side are you on|where do you stand/i);
      }
      if (/^(we|why|how)\b/i.test(topic)) expect(firstLine(post)).not.toMatch(/^(Meet|Treat yourself)\b/);
    }
  });

  it("varies with the seed: at least 3 openings and 3 closings over 4 seeds", async () => {
    const written = await posts;
    expect(new Set(written.map(firstLine)).size).toBeGreaterThanOrEqual(3);
    expect(new Set(written.map(closing)).size).toBeGreaterThanOrEqual(3);
  });
});
