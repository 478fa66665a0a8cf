import { type DraftExamples, writeExamplesBlock } from "@/lib/ai/examples-block";
import type { PostPatterns } from "@/lib/contracts/learning";
import type { Channel } from "@/lib/contracts/post-rules";

const CHANNEL_NAMES: Record<Channel, string> = {
  linkedin: "LinkedIn",
  instagram: "Instagram",
  telegram: "Telegram",
};

const MEASURES: Record<DraftExamples["measure"], string> = {
  reach: "interactions ÷ reach",
  views: "interactions ÷ views (the platform gives no reach)",
  interactions: "interactions (the platform gives neither reach nor views)",
};

const MEDIA: Record<PostPatterns["mediaType"], string> = {
  text_only: "text only",
  single_image: "one image",
  carousel: "a carousel",
  video: "a video",
};

const pad = (hour: number) => String(hour).padStart(2, "0");

/** One post's measured patterns in words: "about 180 characters, 2 hashtags, text only, …". */
export function describePatterns(patterns: PostPatterns) {
  return [
    `${patterns.captionLength} characters`,
    `${patterns.hashtags} hashtag${patterns.hashtags === 1 ? "" : "s"}`,
    MEDIA[patterns.mediaType],
    patterns.opening === "question" ? "opens with a question" : "opens with a statement",
    patterns.emoji ? "uses emoji" : "no emoji",
    `published at ${pad(patterns.hour)}:00`,
  ].join(", ");
}

const rate = (examples: DraftExamples, value: number) =>
  examples.measure === "interactions" ? `${value} interactions` : `engagement ${(value * 100).toFixed(1)}%`;

/**
 * The examples section of a draft's user prompt: the channel's 3 best posts with what made them work and
 * the weakest posts' patterns to avoid, in words, then the same as a block for the local model. This text
 * is what the model receives, and what the brand context shows.
 */
export function examplesPrompt(examples: DraftExamples) {
  const channel = CHANNEL_NAMES[examples.channel];
  const posts = examples.examples.map((example, index) =>
    [
      `Example ${index + 1} (${rate(examples, example.engagementRate)}${
        example.relative === null ? "" : `, ${example.relative}× the brand's median`
      }): ${describePatterns(example.patterns)}.`,
      '"""',
      example.caption,
      ...(example.hashtags.length
        ? [example.hashtags.map((tag) => (tag.startsWith("#") ? tag : `#${tag}`)).join(" ")]
        : []),
      '"""',
    ].join("\n"),
  );
  return [
    `Learn from the brand's own results on ${channel} (engagement rate: ${MEASURES[examples.measure]}, compared with the brand's median on ${channel}).`,
    `Its ${examples.examples.length} best posts, as examples of what works for this audience. Follow what made them work; never copy their words or their topic:`,
    ...posts,
    `What the best posts have in common, to follow: ${describePatterns(examples.follow)}.`,
    `What its weakest posts have in common, to avoid: ${describePatterns(examples.avoid)}.`,
    writeExamplesBlock(examples),
  ].join("\n\n");
}
