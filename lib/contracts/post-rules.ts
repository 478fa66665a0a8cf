/**
 * The post rules the browser needs (enums, channel rules, limits, the brief rule), with no zod: the
 * contract in posts.ts builds its schemas from these, and the studio reads them without loading a schema.
 */

export const CHANNELS = ["telegram", "instagram", "linkedin"] as const;
export type Channel = (typeof CHANNELS)[number];

export const GOALS = ["awareness", "engagement", "traffic", "leads", "sales", "announcement"] as const;
export type Goal = (typeof GOALS)[number];

export const MEDIA_FORMATS = ["text_only", "single_image", "carousel", "video"] as const;
export const ASPECT_RATIOS = ["1:1", "4:5", "9:16", "16:9"] as const;

/** DESIGN §5 channel rules. Telegram allows a longer message when it carries no media. */
export const CHANNEL_RULES = {
  instagram: { captionLimit: 2200, captionLimitWithMedia: 2200, maxHashtags: 5 },
  linkedin: { captionLimit: 3000, captionLimitWithMedia: 3000, maxHashtags: 5 },
  telegram: { captionLimit: 4096, captionLimitWithMedia: 1024, maxHashtags: 5 },
} as const satisfies Record<
  Channel,
  { captionLimit: number; captionLimitWithMedia: number; maxHashtags: number }
>;

export const MAX_HASHTAGS = 5;
export const MAX_MEDIA_ITEMS = 10;
export const HASHTAG_MAX_LENGTH = 100;
export const MAX_CAPTION_LENGTH = Math.max(...Object.values(CHANNEL_RULES).map((rule) => rule.captionLimit));
export const HASHTAG_PATTERN = /^#[\p{L}\p{N}_]+$/u;

export function captionLimit(channel: Channel, mediaPlan: { items: unknown[] }) {
  const rule = CHANNEL_RULES[channel];
  return mediaPlan.items.length > 0 ? rule.captionLimitWithMedia : rule.captionLimit;
}

/** The format a media plan's items call for: a plan says what it holds, and nothing else. */
export function mediaFormatFor(items: { type: "image" | "video" }[]): (typeof MEDIA_FORMATS)[number] {
  if (items.length === 0) return "text_only";
  if (items.length > 1) return "carousel";
  return items[0].type === "video" ? "video" : "single_image";
}

/** brief_too_short (DESIGN §5): the topic needs at least 3 words and 15 characters once trimmed. */
export const MIN_TOPIC_WORDS = 3;
export const MIN_TOPIC_CHARS = 15;
export const BRIEF_TOO_SHORT_MESSAGE = `Describe the topic in at least ${MIN_TOPIC_WORDS} words and ${MIN_TOPIC_CHARS} characters, so there is something to write about.`;

/** Words and characters of a topic as the brief rule counts them (trimmed; words split on whitespace). */
export function topicLength(topic: string) {
  const trimmed = topic.trim();
  return { words: trimmed.split(/\s+/).filter(Boolean).length, characters: trimmed.length };
}

export const isTopicLongEnough = (topic: string) => {
  const { words, characters } = topicLength(topic);
  return words >= MIN_TOPIC_WORDS && characters >= MIN_TOPIC_CHARS;
};

/** Field limits of a generate-post brief. */
export const BRIEF_LIMITS = {
  topic: 500,
  toneOverride: 200,
  assets: 10,
  assetUrl: 2048,
  assetDescription: 300,
} as const;

/** Media item text limits. */
export const MEDIA_ITEM_LIMITS = { description: 600, altText: 400, overlayText: 120 } as const;

/** The streamed answer of generate post (see postStreamEvent in posts.ts). */
export const POST_STREAM_CONTENT_TYPE = "application/x-ndjson";
