import type { TextModelChoice } from "@/lib/ai/model-choice";
import { moderateWithProvider } from "@/lib/ai/moderation";
import { ApiError } from "@/lib/errors/api-error";
import { findTerms, findTermsInHashtag } from "@/lib/text/term-match";
import { POLICY_TERMS } from "./content-policy";

export type ModerationStage = "brief" | "output";

/** Why content was stopped: the stage, the categories (banned_words, a policy category, a provider category) and the terms. */
export type ModerationFlag = { stage: ModerationStage; categories: string[]; terms: string[] };

export type ModeratedContent = { texts: string[]; hashtags?: string[] };

/**
 * Checks texts against the brand's banned words, the built-in policy list and, when the provider has one,
 * its moderation endpoint. Answers null when nothing is flagged.
 */
export async function moderateContent({
  stage,
  content,
  bannedWords,
  choice,
}: {
  stage: ModerationStage;
  content: ModeratedContent;
  bannedWords: string[];
  choice: TextModelChoice;
}): Promise<ModerationFlag | null> {
  const text = content.texts.join("\n");
  const hashtags = content.hashtags ?? [];
  const categories = new Set<string>();
  const terms = new Set<string>();
  const banned = [
    ...findTerms(text, bannedWords),
    ...hashtags.flatMap((tag) => findTermsInHashtag(tag, bannedWords)),
  ];
  if (banned.length) {
    categories.add("banned_words");
    for (const term of banned) terms.add(term);
  }
  const everything = `${text}\n${hashtags.join(" ")}`;
  for (const [category, policyTerms] of Object.entries(POLICY_TERMS)) {
    const found = findTerms(everything, policyTerms);
    if (found.length) {
      categories.add(category);
      for (const term of found) terms.add(term);
    }
  }
  if (!categories.size) {
    const provider = await moderateWithProvider(choice, [...content.texts, ...hashtags].filter(Boolean));
    if (provider?.flagged) for (const category of provider.categories) categories.add(category);
    if (provider?.flagged && !provider.categories.length) categories.add("provider_flagged");
  }
  return categories.size ? { stage, categories: [...categories], terms: [...terms] } : null;
}

/** moderation_required, naming the terms (or the provider's categories) so the marketer knows what to change. */
export function moderationError(flag: ModerationFlag) {
  const what = flag.stage === "brief" ? "The brief" : "The generated post";
  const named = flag.terms.length ? `: ${flag.terms.join(", ")}` : ` (${flag.categories.join(", ")})`;
  return new ApiError(
    "moderation_required",
    `${what} was flagged by moderation${named}. Change the wording and try again. Nothing was saved.`,
    { details: flag },
  );
}
