import { removeTerms } from "@/lib/text/term-match";
import type { PostBrief } from "../brief-block";
import type { DraftExamples } from "../examples-block";
import { chooseHashtags } from "./hashtags";
import { GOAL_EMOJI } from "./phrases";
import type { BrandBrief } from "./read-brand-prompt";
import { capitalize, decapitalize, topicForms } from "./topic";

type Written = { caption: string; hashtags: string[] };

const EMOJI = /\p{Extended_Pictographic}\uFE0F?\s?/gu;
const firstLineOf = (caption: string) => caption.split("\n")[0] ?? "";
const asksFirst = (caption: string) => /\?\s*$/.test(firstLineOf(caption).match(/^[^.!?]*[.!?]?/)?.[0] ?? "");

/** A first line that asks: the topic as a question to the reader. */
function questionHook(topic: string) {
  const forms = topicForms(topic);
  const subject = forms.text.length <= 90 ? forms.text : forms.short;
  return forms.kind === "question"
    ? `${capitalize(subject)}?`
    : `Have you heard about ${decapitalize(subject)}?`;
}

/**
 * The built-in model's way of following a channel's best posts (issue 41): it cannot imitate their words,
 * but it can take what made them work: their number of hashtags, whether they open with a question, their
 * emoji use and their length (paragraphs go, the first and the last stay, until the caption is near theirs).
 */
export function followExamples<T extends Written>({
  post,
  examples,
  brief,
  brand,
  english,
}: {
  post: T;
  examples: DraftExamples;
  brief: PostBrief;
  brand: BrandBrief;
  /** The question opening is written in English only; other languages keep their own first line. */
  english: boolean;
}): T {
  const follow = examples.follow;
  const topic = removeTerms(brief.topic, brand.bannedWords).replace(/\s+/g, " ");
  let paragraphs = post.caption.split("\n\n");

  if (english && follow.opening === "question" && !asksFirst(post.caption)) {
    paragraphs = [questionHook(topic), ...paragraphs.slice(1)];
  } else if (english && follow.opening === "statement" && asksFirst(post.caption)) {
    paragraphs = [`${capitalize(topicForms(topic).short)}.`, ...paragraphs.slice(1)];
  }

  const target = Math.max(follow.captionLength, 60);
  while (paragraphs.join("\n\n").length > target * 1.25 && paragraphs.length > 2) {
    paragraphs = [...paragraphs.slice(0, -2), paragraphs[paragraphs.length - 1]];
  }

  let caption = paragraphs.join("\n\n");
  const hasEmoji = EMOJI.test(caption);
  EMOJI.lastIndex = 0;
  if (follow.emoji && !hasEmoji) caption = `${GOAL_EMOJI[brief.goal]} ${caption}`;
  if (!follow.emoji && hasEmoji) caption = caption.replace(EMOJI, "").trim();

  const wanted = Math.min(follow.hashtags, brief.maxHashtags);
  const hashtags =
    post.hashtags.length >= wanted
      ? post.hashtags.slice(0, wanted)
      : chooseHashtags({
          topic,
          brandTags: brand.hashtags,
          bannedWords: brand.bannedWords,
          max: wanted,
        });
  return { ...post, caption, hashtags };
}
