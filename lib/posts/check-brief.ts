import type { Brand } from "@/db/schema";
import { ApiError } from "@/lib/api/api-error";

export const MIN_TOPIC_WORDS = 3;
export const MIN_TOPIC_CHARS = 15;

/** brief_too_short: fewer than 3 words or 15 characters once trimmed. */
export function assertBriefLongEnough(topic: string) {
  const trimmed = topic.trim();
  const words = trimmed.split(/\s+/).filter(Boolean).length;
  if (words < MIN_TOPIC_WORDS || trimmed.length < MIN_TOPIC_CHARS) {
    throw new ApiError(
      "brief_too_short",
      `Describe the topic in at least ${MIN_TOPIC_WORDS} words and ${MIN_TOPIC_CHARS} characters, so there is something to write about.`,
      {
        details: {
          words,
          characters: trimmed.length,
          minWords: MIN_TOPIC_WORDS,
          minCharacters: MIN_TOPIC_CHARS,
        },
      },
    );
  }
}

/** brand_context_missing: without a tone and a voice there is nothing to write in. */
export function assertBrandHasContext(brand: Brand) {
  const missing = (["tone", "voice"] as const).filter((field) => !brand[field].trim());
  if (missing.length) {
    throw new ApiError(
      "brand_context_missing",
      `The brand "${brand.name}" has no ${missing.join(" or ")} yet. Set ${missing.length > 1 ? "them" : "it"} in the brand settings, then generate again.`,
      { details: { brandId: brand.id, missing } },
    );
  }
}
