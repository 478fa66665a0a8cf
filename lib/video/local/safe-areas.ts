import type { VideoAspectRatio } from "@/lib/contracts/video";

/**
 * The share of each edge that the platforms' own buttons and labels cover, per shape: Reels, Shorts and
 * TikTok (9:16) put the caption, the music label and the buttons over the bottom fifth and the right
 * eighth, the account name over the top; feed posts (4:5, 1:1) and landscape players (16:9) cover less.
 * Captions, the logo and overlay text stay inside what is left; tests check rendered frames against it.
 */
export const SAFE_AREA_MARGINS: Record<
  VideoAspectRatio,
  { top: number; bottom: number; left: number; right: number }
> = {
  "9:16": { top: 0.12, bottom: 0.2, left: 0.06, right: 0.12 },
  "4:5": { top: 0.06, bottom: 0.1, left: 0.06, right: 0.06 },
  "1:1": { top: 0.06, bottom: 0.08, left: 0.06, right: 0.06 },
  "16:9": { top: 0.07, bottom: 0.1, left: 0.05, right: 0.05 },
};

export type PixelBox = { x: number; y: number; width: number; height: number };

/** The safe area of a frame in pixels (whole pixels, inside the margins). */
export function safeArea(aspectRatio: VideoAspectRatio, width: number, height: number): PixelBox {
  const margins = SAFE_AREA_MARGINS[aspectRatio];
  const x = Math.ceil(width * margins.left);
  const y = Math.ceil(height * margins.top);
  return {
    x,
    y,
    width: Math.floor(width * (1 - margins.right)) - x,
    height: Math.floor(height * (1 - margins.bottom)) - y,
  };
}
