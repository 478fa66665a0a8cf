import type { Post } from "@/db/schema";
import { CHANNEL_RULES } from "@/lib/contracts/post-rules";

/** The text a post is published with: its caption, then its hashtags that the caption does not already hold. */
export function publishedText(post: Pick<Post, "caption" | "hashtags">) {
  const missing = post.hashtags.filter((tag) => !post.caption.includes(tag));
  return missing.length > 0 ? `${post.caption.trimEnd()}\n\n${missing.join(" ")}` : post.caption;
}

export const PLATFORM_NAMES = { telegram: "Telegram", linkedin: "LinkedIn", instagram: "Instagram" } as const;

export type PublishRuleViolation = {
  channel: "telegram" | "instagram" | "linkedin";
  rule: "caption_length" | "media_required" | "media_count" | "media_unsupported" | "media_size";
  limit: number;
  actual: number;
  withMedia: boolean;
  message: string;
};

/**
 * The channel's rules for what will actually be sent (checked when the publication is created and again
 * when it runs, since the post may have been edited in between). Telegram: the post's video goes as
 * sendVideo with a caption of at most 1,024 characters; without a video, sendMessage takes 4,096. LinkedIn's
 * video rules need the media store (its size), so they are linkedin-video.ts's linkedinVideoRuleViolation.
 */
export function publishRuleViolation(
  channel: "telegram" | "instagram" | "linkedin",
  post: Pick<Post, "caption" | "hashtags" | "videoUrl">,
): PublishRuleViolation | null {
  const text = publishedText(post);
  const withMedia = Boolean(post.videoUrl);
  const rule = CHANNEL_RULES[channel];
  const limit = withMedia ? rule.captionLimitWithMedia : rule.captionLimit;
  if (text.length > limit) {
    return {
      channel,
      rule: "caption_length",
      limit,
      actual: text.length,
      withMedia,
      message: `The text to publish has ${text.length} characters (caption and hashtags); ${PLATFORM_NAMES[channel]} allows ${limit}${withMedia ? " with a video" : ""}. Shorten the caption.`,
    };
  }
  return null;
}
