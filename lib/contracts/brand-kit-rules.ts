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
