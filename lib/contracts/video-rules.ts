/** Video limits, frame shapes and statuses, with no zod: the contract in video.ts and the video pages share them. */
import type { VideoJobStatus } from "./enums";
import type { Channel } from "./post-rules";

export const SCRIPT_MIN_CHARS = 20;
export const SCRIPT_MAX_CHARS = 5000;
export const VIDEO_BRIEF_MAX_CHARS = 1000;

export const VIDEO_MODES = ["avatar", "regular"] as const;
export type VideoMode = (typeof VIDEO_MODES)[number];

/** The frame shapes a video can have: vertical reel, portrait feed, square, landscape. */
export const VIDEO_ASPECT_RATIOS = ["9:16", "4:5", "1:1", "16:9"] as const;
export type VideoAspectRatio = (typeof VIDEO_ASPECT_RATIOS)[number];

/** DESIGN §5: without an aspectRatio, a video follows its source post's channel; a script is landscape. */
export const CHANNEL_VIDEO_ASPECT_RATIO = {
  instagram: "9:16",
  linkedin: "1:1",
  telegram: "16:9",
} as const satisfies Record<Channel, VideoAspectRatio>;
export const SCRIPT_VIDEO_ASPECT_RATIO: VideoAspectRatio = "16:9";

export function defaultVideoAspectRatio(channel: Channel | null): VideoAspectRatio {
  return channel ? CHANNEL_VIDEO_ASPECT_RATIO[channel] : SCRIPT_VIDEO_ASPECT_RATIO;
}

/** A job in one of these states changes no more: polling stops. */
export const isTerminalVideoStatus = (status: VideoJobStatus) =>
  status === "succeeded" || status === "failed" || status === "canceled";
