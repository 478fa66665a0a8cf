/**
 * The brand kit's rules the browser and the server share (zod-free): the bundled fonts a brand may pick,
 * and the limits of its logo and music uploads. The font files themselves are in npm packages
 * (lib/media/brand-fonts.ts maps each id to its TTF), so nothing is fetched at run time.
 */

export const BRAND_FONTS = {
  sans: { label: "Inter (sans)", family: "Inter" },
  serif: { label: "Lora (serif)", family: "Lora" },
  display: { label: "Bebas Neue (display)", family: "Bebas Neue" },
} as const;
export type BrandFont = keyof typeof BRAND_FONTS;
export const BRAND_FONT_IDS = Object.keys(BRAND_FONTS) as [BrandFont, ...BrandFont[]];
export const DEFAULT_BRAND_FONT: BrandFont = "sans";

export const LOGO_LIMITS = {
  maxBytes: 2 * 1024 * 1024,
  maxPixels: 4096 * 4096,
  mimeTypes: ["image/png", "image/jpeg", "image/svg+xml"],
} as const;

export const MUSIC_LIMITS = {
  maxBytes: 20 * 1024 * 1024,
  mimeTypes: ["audio/mpeg", "audio/aac", "audio/mp4", "audio/wav", "audio/x-wav"],
} as const;

/** The multipart field every brand-kit upload (logo, music) and media-plan image upload sends its file in. */
export const KIT_UPLOAD_FIELD = "file";

/** The logo is stored as a PNG whose longer side is at most this (an SVG is rasterised to it). */
export const LOGO_STORED_MAX_SIDE = 1024;

/**
 * OpenAI's speech voices (gpt-4o-mini-tts): what a brand may pick for its videos when OPENAI_API_KEY is
 * set. Without it the renderer speaks with eSpeak NG in the brand's language, and the pick is kept.
 */
export const TTS_VOICES = [
  "alloy",
  "ash",
  "ballad",
  "coral",
  "echo",
  "fable",
  "nova",
  "onyx",
  "sage",
  "shimmer",
  "verse",
] as const;
export type TtsVoice = (typeof TTS_VOICES)[number];

/** Media-plan images: uploads (PNG, JPEG or WebP, checked by their bytes) and what is stored. */
export const MEDIA_IMAGE_LIMITS = {
  maxBytes: 5 * 1024 * 1024,
  maxPixels: 50_000_000,
  mimeTypes: ["image/png", "image/jpeg", "image/webp"],
  /** The stored image's longer side, in the item's aspect ratio. */
  longSide: 1080,
} as const;
