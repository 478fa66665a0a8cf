import {
  type Channel,
  captionLimit,
  hashtagList,
  MAX_MEDIA_ITEMS,
  type MediaPlan,
  mediaFormatFor,
  mediaPlan as mediaPlanSchema,
} from "@/lib/contracts/posts";
import type { DraftOutput } from "./draft-output";

export type PostContent = { caption: string; mediaPlan: MediaPlan; hashtags: string[] };
export type RuleIssue = { path: string; message: string };

const CHANNEL_NAMES: Record<Channel, string> = {
  instagram: "Instagram",
  linkedin: "LinkedIn",
  telegram: "Telegram",
};

/** Every way the content breaks its channel's rules (DESIGN §5), as field issues; empty when it keeps them. */
export function channelRuleIssues(channel: Channel, content: PostContent): RuleIssue[] {
  const issues: RuleIssue[] = [];
  const limit = captionLimit(channel, content.mediaPlan);
  if (!content.caption.trim()) issues.push({ path: "caption", message: "The caption is empty." });
  if (content.caption.length > limit) {
    const withMedia = channel === "telegram" && content.mediaPlan.items.length > 0 ? " with media" : "";
    issues.push({
      path: "caption",
      message: `The caption has ${content.caption.length} characters; ${CHANNEL_NAMES[channel]} allows ${limit}${withMedia}.`,
    });
  }
  const tags = hashtagList.safeParse(content.hashtags);
  if (!tags.success) {
    for (const issue of tags.error.issues) {
      issues.push({ path: ["hashtags", ...issue.path].join("."), message: issue.message });
    }
  }
  const plan = mediaPlanSchema.safeParse(content.mediaPlan);
  if (!plan.success) {
    for (const issue of plan.error.issues) {
      issues.push({ path: ["mediaPlan", ...issue.path].join("."), message: issue.message });
    }
  }
  return issues;
}

const clip = (text: string, max: number) =>
  text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;

/** Cuts text to at most `max` characters, at the end of a sentence when one is near, else at a word. */
function cutText(text: string, max: number) {
  if (text.length <= max) return text;
  const window = text.slice(0, max);
  const sentenceEnd = Math.max(
    ...[". ", "! ", "? ", ".\n", "!\n", "?\n"].map((end) => window.lastIndexOf(end)),
  );
  if (sentenceEnd >= max * 0.5) return window.slice(0, sentenceEnd + 1).trimEnd();
  const wordEnd = window.slice(0, max - 1).search(/\s+\S*$/);
  return `${window.slice(0, wordEnd > 0 ? wordEnd : max - 1).trimEnd()}…`;
}

/**
 * Fits a caption to a length: drops middle paragraphs first so the hook and the call to action survive,
 * then cuts at a sentence.
 */
export function fitCaption(caption: string, max: number) {
  let paragraphs = caption.split(/\n{2,}/);
  const join = () => paragraphs.join("\n\n");
  while (join().length > max && paragraphs.length > 2) {
    paragraphs = [...paragraphs.slice(0, -2), paragraphs[paragraphs.length - 1]];
  }
  if (join().length <= max) return join();
  const last = paragraphs[paragraphs.length - 1];
  if (paragraphs.length > 1 && last.length <= max / 4) {
    const head = cutText(paragraphs.slice(0, -1).join("\n\n"), max - last.length - 2);
    return `${head}\n\n${last}`;
  }
  return cutText(join(), max);
}

const HASHTAG_LINE = /^(?:\s*#[\p{L}\p{N}_]+)+\s*$/u;

/** Tags as the channel wants them: #, then letters, digits or _, no repeats ignoring case, at most `max`. */
export function normalizeHashtags(tags: string[], max: number) {
  const seen = new Set<string>();
  const result: string[] = [];
  for (const raw of tags) {
    const body = raw.replace(/[^\p{L}\p{N}_]/gu, "").slice(0, 99);
    if (!body || seen.has(body.toLowerCase())) continue;
    seen.add(body.toLowerCase());
    result.push(`#${body}`);
    if (result.length === max) break;
  }
  return result;
}

/**
 * Turns a model's draft into content that keeps the channel's rules: hashtags the model left at the end
 * of the caption join the list, tags are cleaned, the media plan's format follows its items, and the
 * caption is fitted to the limit.
 */
export function repairDraft(channel: Channel, draft: DraftOutput, maxHashtags = 5): PostContent {
  const lines = draft.caption.trim().split("\n");
  const trailingTags: string[] = [];
  while (lines.length > 1 && HASHTAG_LINE.test(lines[lines.length - 1])) {
    trailingTags.unshift(...(lines.pop() ?? "").trim().split(/\s+/));
  }
  const items = draft.mediaPlan.items.slice(0, MAX_MEDIA_ITEMS).flatMap((item) => {
    const description = item.description.trim().replace(/\s+/g, " ");
    const altText = item.altText.trim().replace(/\s+/g, " ") || description;
    if (!description) return [];
    const overlay = item.overlayText?.trim();
    return [
      {
        type: item.type,
        description: clip(description, 600),
        altText: clip(altText, 400),
        aspectRatio: item.aspectRatio,
        ...(overlay ? { overlayText: clip(overlay, 120) } : {}),
      },
    ];
  });
  const mediaPlan: MediaPlan = { format: mediaFormatFor(items), items };
  const caption = lines
    .join("\n")
    .replace(/[ \t]+$/gm, "")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
  return {
    caption: fitCaption(caption, captionLimit(channel, mediaPlan)),
    mediaPlan,
    hashtags: normalizeHashtags([...draft.hashtags, ...trailingTags], maxHashtags),
  };
}
