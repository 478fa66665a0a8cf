/** Brand profile limits and patterns, with no zod: the contract in brands.ts and the brand forms share them. */
export { HASHTAG_PATTERN } from "./post-rules";

/** The limits of a brand profile. The settings page shows them next to the fields. */
export const BRAND_LIMITS = {
  name: 80,
  tone: 200,
  voice: 1000,
  audience: 500,
  values: { items: 10, length: 60 },
  doList: { items: 15, length: 200 },
  dontList: { items: 15, length: 200 },
  bannedWords: { items: 50, length: 40 },
  // A post carries at most 5 hashtags (DESIGN §5), so more brand defaults could never all be used.
  defaultHashtags: { items: 5, length: 50 },
  monthlyVideoQuota: 1000,
} as const;

/** Avatar uploads: what the upload-avatar operation accepts. */
export const AVATAR_UPLOAD = {
  field: "file",
  maxBytes: 5 * 1024 * 1024,
  types: ["image/png", "image/jpeg", "image/webp"],
  minSide: 128,
} as const;

export const COLOR_PATTERN = /^#[0-9A-Fa-f]{6}$/;
export const LANGUAGE_PATTERN = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8}){0,3}$/;
