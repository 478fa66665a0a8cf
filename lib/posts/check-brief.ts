import type { Brand } from "@/db/schema";
import { LOCAL_MODEL_LANGUAGES } from "@/lib/ai/local/language-banks";
import type { TextModelChoice } from "@/lib/ai/model-choice";
import { languageName } from "@/lib/contracts/language-tags";
import {
  BRIEF_TOO_SHORT_MESSAGE,
  isTopicLongEnough,
  MIN_TOPIC_CHARS,
  MIN_TOPIC_WORDS,
  topicLength,
} from "@/lib/contracts/posts";
import { ApiError } from "@/lib/errors/api-error";

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

/**
 * language_unsupported (DESIGN §11): the built-in model writes only the languages of its phrase banks; it
 * refuses the others rather than write English labelled as another language. Hosted models write any.
 */
export function assertModelWrites(choice: Pick<TextModelChoice, "provider">, languages: string[]) {
  if (choice.provider !== "local") return;
  const unsupported = languages.filter(
    (tag) => !LOCAL_MODEL_LANGUAGES.includes(tag.split("-")[0].toLowerCase()),
  );
  if (!unsupported.length) return;
  const names = unsupported.map((tag) => `${languageName(tag)} (${tag})`).join(", ");
  throw new ApiError(
    "language_unsupported",
    `The built-in writing model cannot write ${names}. It writes ${LOCAL_MODEL_LANGUAGES.map((tag) => `${languageName(tag)} (${tag})`).join(", ")}; set OPENAI_API_KEY or OPENAI_BASE_URL for a model that writes every language.`,
    { details: { languages: unsupported, supported: LOCAL_MODEL_LANGUAGES } },
  );
}
