import type { Post } from "@/db/schema";
import type { PublicationPlacement } from "@/lib/contracts/enums";
import type { PUBLISH_RULES } from "@/lib/contracts/error-details";
import { CHANNEL_RULES, type Channel, MAX_MEDIA_ITEMS } from "@/lib/contracts/post-rules";

/** The text a post is published with: its caption, then its hashtags that the caption does not already hold. */
export function publishedText(post: Pick<Post, "caption" | "hashtags">) {
  const missing = post.hashtags.filter((tag) => !post.caption.includes(tag));
  return missing.length > 0 ? `${post.caption.trimEnd()}\n\n${missing.join(" ")}` : post.caption;
}

export const PLATFORM_NAMES = { telegram: "Telegram", linkedin: "LinkedIn", instagram: "Instagram" } as const;

export type PublishRuleViolation = {
  channel: Channel;
  rule: (typeof PUBLISH_RULES)[number];
  limit: number;
  actual: number;
  withMedia: boolean;
  message: string;
};

/**
 * The channel's rules for what will actually be sent (checked when the publication is created and again
 * when it runs, since the post may have been edited in between). Telegram: the post's video goes as
 * sendVideo, the media plan's images as sendPhoto or an album (sendMediaGroup), each with a caption of at
 * most 1,024 characters; without media, sendMessage takes 4,096. LinkedIn's video rules need the media
 * store (its size) and the video job that made it (its length), so they are platforms/linkedin/video.ts's
 * linkedinVideoRuleViolation.
 * Instagram: media required, the video as a reel or the media plan's generated images; a carousel plan
 * needs 2 to 10 of them. An Instagram story sends no text: it needs the video or one generated image.
 */
export function publishRuleViolation(
  channel: Channel,
  post: Pick<Post, "caption" | "hashtags" | "videoUrl" | "mediaPlan">,
  placement: PublicationPlacement = "feed",
): PublishRuleViolation | null {
  if (placement === "story") return storyMediaViolation(post);
  const text = publishedText(post);
  const withMedia = Boolean(post.videoUrl) || post.mediaPlan.items.some((item) => Boolean(item.imageKey));
  const rule = CHANNEL_RULES[channel];
  const limit = withMedia ? rule.captionLimitWithMedia : rule.captionLimit;
  if (text.length > limit) {
    return {
      channel,
      rule: "caption_length",
      limit,
      actual: text.length,
      withMedia,
      message: `The text to publish has ${text.length} characters (caption and hashtags); ${PLATFORM_NAMES[channel]} allows ${limit}${withMedia ? " with media (a video or images)" : ""}. Shorten the caption.`,
    };
  }
  if (channel === "instagram" && !post.videoUrl) return instagramMediaViolation(post, text.length);
  return null;
}

/** An Instagram post needs the video or at least one generated image; a carousel 2 to 10. */
function instagramMediaViolation(
  post: Pick<Post, "mediaPlan">,
  textLength: number,
): PublishRuleViolation | null {
  const images = post.mediaPlan.items.filter((item) => Boolean(item.imageKey)).length;
  const base = { channel: "instagram" as const, withMedia: images > 0 };
  if (images === 0) {
    return {
      ...base,
      rule: "media_required",
      limit: 1,
      actual: 0,
      message: `Instagram posts need media: generate an image of the media plan or add the video (the caption alone, ${textLength} characters, cannot be posted).`,
    };
  }
  const carousel = post.mediaPlan.format === "carousel";
  if (images > MAX_MEDIA_ITEMS || (carousel && images < 2)) {
    return {
      ...base,
      rule: "media_count",
      limit: images > MAX_MEDIA_ITEMS ? MAX_MEDIA_ITEMS : 2,
      actual: images,
      message: `An Instagram carousel holds 2 to ${MAX_MEDIA_ITEMS} images and this post has ${images} generated. ${images < 2 ? "Generate another image, or make it a single image post." : "Remove images from the media plan."}`,
    };
  }
  return null;
}

/** A story is one picture or one video, without text: the post's video, else its first generated image. */
function storyMediaViolation(post: Pick<Post, "videoUrl" | "mediaPlan">): PublishRuleViolation | null {
  if (post.videoUrl || post.mediaPlan.items.some((item) => Boolean(item.imageKey))) return null;
  return {
    channel: "instagram",
    rule: "media_required",
    limit: 1,
    actual: 0,
    withMedia: false,
    message:
      "An Instagram story is a picture or a video: generate an image of the media plan or add the video (its caption is not sent).",
  };
}
