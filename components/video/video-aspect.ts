import type { VideoAspectRatio } from "@/lib/contracts/video";

/** Tailwind aspect classes per frame shape (whole class names, so Tailwind sees them). */
export const ASPECT_CLASS: Record<VideoAspectRatio, string> = {
  "9:16": "aspect-[9/16]",
  "4:5": "aspect-[4/5]",
  "1:1": "aspect-square",
  "16:9": "aspect-video",
};

export const ASPECT_LABEL: Record<VideoAspectRatio, string> = {
  "9:16": "Vertical 9:16",
  "4:5": "Portrait 4:5",
  "1:1": "Square 1:1",
  "16:9": "Landscape 16:9",
};
