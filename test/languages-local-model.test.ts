import { franc } from "franc-min";
import { describe, expect, it } from "vitest";
import type { TextModelChoice } from "@/lib/ai/model-choice";
import { buildBrandPrompt } from "@/lib/brands/brand-prompt";
import { createBrandBody, updateBrandBody } from "@/lib/contracts/brands";
import { CHANNELS, type GeneratePostInput, GOALS } from "@/lib/contracts/posts";
import { ApiError } from "@/lib/errors/api-error";
import { channelRuleIssues } from "@/lib/posts/channel-rules";
import { draftPosts } from "@/lib/posts/generate-post-draft";
import { findTerms } from "@/lib/text/term-match";
import { toWebVtt } from "@/lib/video/local/caption-layout";
import { brandRow } from "./support/post-fixtures";

const local: TextModelChoice = {
  provider: "local",
  model: "brand-studio-local-1",
  moderation: false,
  timeoutMs: 5000,
};
const FIVE = ["en", "es", "de", "fr", "pt-BR"];
/** franc's ISO 639-3 code for each language tag. */
const ISO3: Record<string, string> = { en: "eng", es: "spa", de: "deu", fr: "fra", "pt-BR": "por" };

const brand = brandRow({ languages: [...FIVE, "ja"], bannedWords: ["cheap", "barato", "billig"] });
const input = (overrides: Partial<GeneratePostInput> = {}): GeneratePostInput => ({
  brandId: brand.id,
  channel: "linkedin",
  goal: "awareness",
  topic: "our new Ethiopian single-origin espresso, roasted in small batches",
  languages: FIVE,
  seed: 7,
  // In process with no database: learning from results reads one (test/insights-learning.test.ts).
  learnFromResults: false,
  ...overrides,
});

/** The draft's own words: the caption without the topic the marketer typed (in whatever language). */
const ownWords = (caption: string, topic: string) => caption.split(topic).join(" ");

describe("the built-in model writes each of its languages", () => {
  it("gives one draft per language, each in that language (a language detector agrees), within the channel rules", async () => {
    for (const channel of CHANNELS) {
      for (const goal of GOALS) {
        const topic = "our new Ethiopian single-origin espresso, roasted in small batches";
        const drafts = await draftPosts({ brand, input: input({ channel, goal, topic }), choice: local });
        expect(drafts.map((draft) => draft.language)).toEqual(FIVE);
        for (const draft of drafts) {
          const text = ownWords(
            draft.content.caption,
            "Our new Ethiopian single-origin espresso, roasted in small batches",
          );
          expect(franc(text, { minLength: 10 }), `${channel} ${goal} ${draft.language}: ${text}`).toBe(
            ISO3[draft.language],
          );
          expect(channelRuleIssues(channel, draft.content)).toEqual([]);
        }
        // Not one text with a label: every language's caption is its own.
        expect(new Set(drafts.map((draft) => draft.content.caption)).size).toBe(FIVE.length);
      }
    }
  });

  it("writes hashtags and alt text in the language, and keeps the brand's banned words out of every language", async () => {
    // Words the phrase banks use (es "historia", de "Geschichte", fr "histoire", pt "história", #Novedades).
    const banned = ["cheap", "historia", "Geschichte", "histoire", "história", "Novedades"];
    const strict = brandRow({ languages: FIVE, bannedWords: banned });
    for (const goal of ["traffic", "awareness", "announcement"] as const) {
      for (const seed of [1, 2, 3]) {
        const drafts = await draftPosts({
          brand: strict,
          input: input({ channel: "instagram", goal, topic: "A delicious coffee for every morning", seed }),
          choice: local,
        });
        for (const draft of drafts) {
          const texts = [
            draft.content.caption,
            ...draft.content.hashtags,
            ...draft.content.mediaPlan.items.flatMap((item) => [item.altText, item.description]),
          ];
          expect(findTerms(texts.join("\n"), banned), `${goal} ${seed} ${draft.language}`).toEqual([]);
        }
      }
    }
    const sales = await draftPosts({
      brand,
      input: input({ channel: "instagram", goal: "sales", topic: "A delicious coffee for every morning" }),
      choice: local,
    });
    const spanish = sales.find((draft) => draft.language === "es");
    expect(spanish?.content.hashtags).toEqual(expect.arrayContaining(["#Compra", "#Novedad"]));
    const german = sales.find((draft) => draft.language === "de");
    expect(german?.content.hashtags).toEqual(expect.arrayContaining(["#JetztBestellen"]));
    const alt = sales
      .find((draft) => draft.language === "fr")
      ?.content.mediaPlan.items.map((item) =>
        item.altText.replace("A delicious coffee for every morning", ""),
      )
      .join(" ");
    if (alt) expect(franc(alt, { minLength: 10 })).toBe("fra");
  });

  it("refuses a language it has no phrase bank for with 422 language_unsupported naming what it writes", async () => {
    const error = await draftPosts({ brand, input: input({ languages: ["es", "ja"] }), choice: local }).then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe("language_unsupported");
    expect((error as ApiError).status).toBe(422);
    expect((error as ApiError).details).toEqual({
      languages: ["ja"],
      supported: ["en", "es", "de", "fr", "pt"],
    });
    expect((error as ApiError).message).toMatch(/Japanese \(ja\).*Spanish \(es\)/);
  });

  it("refuses a language the brand does not speak (400 naming it) before writing anything", async () => {
    const error = await draftPosts({ brand, input: input({ languages: ["en", "it"] }), choice: local }).then(
      () => null,
      (caught: unknown) => caught,
    );
    expect((error as ApiError).code).toBe("invalid_request");
    expect((error as ApiError).details).toEqual([
      { path: "languages.1", message: expect.stringContaining('"it" is not one of the brand\'s languages') },
    ]);
  });

  it("writes the brand's main language alone when no languages are asked for", async () => {
    const drafts = await draftPosts({
      brand: brandRow({ language: "de", languages: ["de", "en"] }),
      input: input({ languages: undefined }),
      choice: local,
    });
    expect(drafts.map((draft) => draft.language)).toEqual(["de"]);
    expect(franc(drafts[0].content.caption.split("\n\n").slice(1).join(" "), { minLength: 10 })).toBe("deu");
  });
});

describe("the prompt a hosted model gets names the language", () => {
  it("says which language to write in and that hashtags fit it, keeping the brand's rules", () => {
    const prompt = buildBrandPrompt(brand, { language: "es" });
    expect(prompt).toContain("Write in Spanish (es).");
    expect(prompt).toMatch(/hashtags.*in Spanish \(es\)/);
    expect(prompt).toContain("Banned words (never use them, in any form): cheap, barato, billig");
    expect(buildBrandPrompt(brand)).not.toContain("Language:");
  });
});

describe("brand languages in the contract", () => {
  it("spells tags canonically and names an unknown one", () => {
    expect(createBrandBody.parse({ name: "A", languages: ["EN", "pt-br", "iw"] }).languages).toEqual([
      "en",
      "pt-BR",
      "he",
    ]);
    const result = updateBrandBody.safeParse({ languages: ["en", "klingon", "xx", "de-XX"] });
    expect(result.success).toBe(false);
    const messages = result.error?.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`) ?? [];
    expect(messages).toEqual([
      expect.stringMatching(/^languages\.1: "klingon" is not a language we know/),
      expect.stringMatching(/^languages\.2: "xx" is not a language we know/),
      expect.stringMatching(/^languages\.3: "de-XX" is not a language we know/),
    ]);
    expect(updateBrandBody.safeParse({ languages: ["es", "ES"] }).error?.issues[0].message).toBe(
      '"es" is listed twice.',
    );
    expect(updateBrandBody.safeParse({ languages: [] }).success).toBe(false);
  });
});

describe("captions carry their language", () => {
  it("names the language in the WebVTT header, which players skip before the first cue", () => {
    const vtt = toWebVtt([{ text: "Hola", lines: ["¡Hola, café!"], start: 0, end: 1.5 }], "es");
    expect(vtt).toBe(
      "WEBVTT\nKind: captions\nLanguage: es\n\n1\n00:00:00.000 --> 00:00:01.500\n¡Hola, café!\n",
    );
    expect(toWebVtt([{ text: "Hi", lines: ["Hi"], start: 0, end: 1 }])).toMatch(/^WEBVTT\n\n1\n/);
  });
});
