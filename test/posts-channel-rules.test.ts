import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  ASPECT_RATIOS,
  CHANNELS,
  type Channel,
  captionLimit,
  hashtagList,
  MEDIA_FORMATS,
} from "@/lib/contracts/posts";
import { channelRuleIssues, fitCaption, normalizeHashtags, repairDraft } from "@/lib/posts/channel-rules";
import { POLICY_TERMS } from "@/lib/posts/content-policy";
import type { DraftOutput } from "@/lib/posts/draft-output";
import { findTerms, findTermsInHashtag, removeTerms } from "@/lib/text/term-match";

const image = {
  type: "image" as const,
  description: "A flat white on the counter.",
  altText: "A flat white in a cup.",
  aspectRatio: "4:5" as const,
};
const textOnly = { format: "text_only" as const, items: [] };
const singleImage = { format: "single_image" as const, items: [image] };

describe("channel rules", () => {
  it.each([
    ["instagram", textOnly, 2200],
    ["instagram", singleImage, 2200],
    ["linkedin", singleImage, 3000],
    ["telegram", textOnly, 4096],
    ["telegram", singleImage, 1024],
  ] as const)("%s with %s allows exactly its caption limit", (channel, mediaPlan, limit) => {
    expect(captionLimit(channel, mediaPlan)).toBe(limit);
    expect(channelRuleIssues(channel, { caption: "x".repeat(limit), mediaPlan, hashtags: [] })).toEqual([]);
    const issues = channelRuleIssues(channel, { caption: "x".repeat(limit + 1), mediaPlan, hashtags: [] });
    expect(issues).toHaveLength(1);
    expect(issues[0].path).toBe("caption");
    expect(issues[0].message).toContain(String(limit));
  });

  it("refuses a sixth hashtag, a duplicate ignoring case and a tag with other characters", () => {
    const check = (hashtags: string[]) =>
      channelRuleIssues("linkedin", { caption: "Hello there", mediaPlan: textOnly, hashtags });
    expect(check(["#a", "#b", "#c", "#d", "#e"])).toEqual([]);
    expect(check(["#a", "#b", "#c", "#d", "#e", "#f"])[0].path).toBe("hashtags");
    expect(check(["#Coffee", "#coffee"])).toEqual([
      { path: "hashtags.1", message: "#coffee is a duplicate." },
    ]);
    expect(check(["#cold-brew"])[0].path).toBe("hashtags.0");
    expect(check(["coffee"])[0].path).toBe("hashtags.0");
    expect(check(["#Café_2025"])).toEqual([]);
  });

  it("requires the media plan's format to match its items", () => {
    const issues = channelRuleIssues("instagram", {
      caption: "Hello there",
      mediaPlan: { format: "carousel", items: [image] },
      hashtags: [],
    });
    expect(issues).toEqual([{ path: "mediaPlan.format", message: expect.stringContaining("single_image") }]);
  });
});

describe("fitCaption", () => {
  it("drops middle paragraphs first so the hook and the call to action survive", () => {
    const caption = ["Hook line.", "a".repeat(300), "b".repeat(300), "Order yours today."].join("\n\n");
    const fitted = fitCaption(caption, 400);
    expect(fitted.length).toBeLessThanOrEqual(400);
    expect(fitted.startsWith("Hook line.")).toBe(true);
    expect(fitted.endsWith("Order yours today.")).toBe(true);
  });

  it("always fits, whatever the text", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 6000 }), fc.integer({ min: 20, max: 4096 }), (text, limit) => {
        expect(fitCaption(text, limit).length).toBeLessThanOrEqual(limit);
      }),
    );
  });
});

describe("repairDraft", () => {
  const item = fc.record({
    type: fc.constantFrom("image" as const, "video" as const),
    description: fc.string({ maxLength: 800 }),
    altText: fc.string({ maxLength: 500 }),
    aspectRatio: fc.constantFrom(...ASPECT_RATIOS),
    overlayText: fc.option(fc.string({ maxLength: 200 })),
  });
  const draft: fc.Arbitrary<DraftOutput> = fc.record({
    caption: fc.string({ minLength: 1, maxLength: 5000 }).filter((text) => text.trim().length > 0),
    hashtags: fc.array(fc.string({ maxLength: 30 }), { maxLength: 12 }),
    mediaPlan: fc.record({
      format: fc.constantFrom(...MEDIA_FORMATS),
      items: fc.array(item, { maxLength: 14 }),
    }),
  });

  it("turns any draft with words in it into content that keeps the channel's rules", () => {
    fc.assert(
      fc.property(fc.constantFrom<Channel>(...CHANNELS), draft, (channel, output) => {
        const repaired = repairDraft(channel, output);
        expect(channelRuleIssues(channel, repaired)).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it("moves hashtags the model left at the end of the caption into the list", () => {
    const repaired = repairDraft("instagram", {
      caption: "Fresh beans are in.\n\nCome by today.\n#Coffee #coffee #Fresh_Beans",
      hashtags: ["#NorthwindCoffee", "cold brew"],
      mediaPlan: { format: "text_only", items: [] },
    });
    expect(repaired.caption).toBe("Fresh beans are in.\n\nCome by today.");
    expect(repaired.hashtags).toEqual(["#NorthwindCoffee", "#coldbrew", "#Coffee", "#Fresh_Beans"]);
  });
});

describe("normalizeHashtags", () => {
  it("always yields a valid hashtag list", () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 120 }), { maxLength: 20 }), (tags) => {
        expect(hashtagList.safeParse(normalizeHashtags(tags, 5)).success).toBe(true);
      }),
    );
  });
});

describe("banned term matching", () => {
  it("finds a banned word in any common form, and not inside other words", () => {
    expect(findTerms("Cheaper than ever, and the cheapest in town", ["cheap"])).toEqual(["cheap"]);
    expect(findTerms("Results GUARANTEED.", ["guarantee"])).toEqual(["guarantee"]);
    expect(findTerms("A classy blend", ["ass"])).toEqual([]);
    expect(findTerms("Act   now before it's gone", ["act now"])).toEqual(["act now"]);
    expect(findTerms("A miracle-free zone", ["miracle"])).toEqual(["miracle"]);
  });

  it("finds banned words run together in hashtags", () => {
    expect(findTermsInHashtag("#cheapcoffee", ["cheap"])).toEqual(["cheap"]);
    expect(findTermsInHashtag("#CheapCoffee", ["cheap"])).toEqual(["cheap"]);
    expect(findTermsInHashtag("#SpecialtyCoffee", ["cheap"])).toEqual([]);
  });

  it("names every listed term that occurs, whichever place it has in the list", () => {
    // A term that shares its start with an earlier one is still found, and every match is named once, in
    // the list's order.
    expect(findTerms("Read the pornography act", POLICY_TERMS.sexual)).toEqual(["pornography"]);
    expect(findTerms("No fake reviews, no pyramid schemes", POLICY_TERMS.fraud)).toEqual([
      "pyramid scheme",
      "fake reviews",
    ]);
    expect(findTerms("Cheap, quick and guaranteed", [" cheap ", "guarantee", "cheap", "", "fast"])).toEqual([
      "cheap",
      "guarantee",
    ]);
    expect(findTerms("Nothing to see", [])).toEqual([]);
    expect(findTermsInHashtag("#BestGuaranteedDeal", ["cheap", "act now", "guarantee"])).toEqual([
      "guarantee",
    ]);
    expect(findTermsInHashtag("#actnowdeal", ["cheap", "act now"])).toEqual(["act now"]);
    expect(removeTerms("Cheapest beans, guaranteed fresh", ["guarantee", "cheap"])).toBe("beans, fresh");
    expect(removeTerms("Fresh  beans  today", ["cheap"])).toBe("Fresh beans today");
  });
});
