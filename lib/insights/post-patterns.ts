import type { PostPatterns } from "@/lib/contracts/learning";
import { zonedParts } from "@/lib/contracts/time-zone";

const EMOJI = /\p{Extended_Pictographic}/u;

/** The caption's first line (or sentence, up to its mark) asks a question. */
export function opensWithQuestion(caption: string) {
  const first = caption.trim().split("\n")[0] ?? "";
  const sentence = first.match(/^[^.!?]*[.!?]?/)?.[0] ?? first;
  return sentence.trim().endsWith("?");
}

export const usesEmoji = (caption: string) => EMOJI.test(caption);

/** What can be measured of one published post: length, hashtags, media, opening line, emoji, hour. */
export function postPatterns(
  post: { caption: string; hashtags: number; mediaType: PostPatterns["mediaType"]; publishedAt: Date },
  timeZone: string,
): PostPatterns {
  return {
    captionLength: post.caption.length,
    hashtags: post.hashtags,
    mediaType: post.mediaType,
    opening: opensWithQuestion(post.caption) ? "question" : "statement",
    emoji: usesEmoji(post.caption),
    hour: zonedParts(post.publishedAt, timeZone).hour,
  };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : Math.round((sorted[middle - 1] + sorted[middle]) / 2);
};

const mostCommon = <T>(values: T[]): T => {
  const counts = new Map<T, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1])[0][0];
};

/** What a few posts have in common: the median length and hashtags, the usual media, opening, emoji and hour. */
export function commonPatterns(patterns: PostPatterns[]): PostPatterns {
  return {
    captionLength: median(patterns.map((p) => p.captionLength)),
    hashtags: median(patterns.map((p) => p.hashtags)),
    mediaType: mostCommon(patterns.map((p) => p.mediaType)),
    opening: mostCommon(patterns.map((p) => p.opening)),
    emoji: patterns.filter((p) => p.emoji).length * 2 > patterns.length,
    hour: mostCommon(patterns.map((p) => p.hour)),
  };
}
