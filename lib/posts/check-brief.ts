import type { Brand } from "@/db/schema";
import { ApiError } from "@/lib/api/api-error";
import {
  BRIEF_TOO_SHORT_MESSAGE,
  isTopicLongEnough,
  MIN_TOPIC_CHARS,
  MIN_TOPIC_WORDS,
  topicLength,
} from "@/lib/contracts/posts";

export { MIN_TOPIC_CHARS, MIN_TOPIC_WORDS };

/** brief_too_short: fewer than 3 words or 15 characters once trimmed (the rule the studio also checks). */
export function assertBriefLongEnough(topic: string) {
  if (isTopicLongEnough(topic)) return;
  const { words, characters } = topicLength(topic);
  throw new ApiError("brief_too_short", BRIEF_TOO_SHORT_MESSAGE, {
    details: { words, characters, minWords: MIN_TOPIC_WORDS, minCharacters: MIN_TOPIC_CHARS },
  });
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
