import { z } from "zod";
import {
  BRAND_FONT_IDS,
  BRAND_FONTS,
  KIT_UPLOAD_FIELD,
  LOGO_LIMITS,
  MUSIC_LIMITS,
  TTS_VOICES,
} from "./brand-kit-rules";
import { AVATAR_UPLOAD, BRAND_LIMITS, COLOR_PATTERN, HASHTAG_PATTERN, LANGUAGE_PATTERN } from "./brand-rules";
import { idOf, isoDateTime, userText } from "./common";
import { AVATAR_STATUSES, BRAND_ROLES, IMAGE_SOURCES } from "./enums";
import { canonicalLanguageTag, MAX_LANGUAGES } from "./language-tags";
import { defineOperation } from "./operation";
import { ROUTES } from "./routes";
import { canonicalTimeZone } from "./time-zone";
import { VIDEO_ASPECT_RATIOS } from "./video-rules";

export * from "./brand-kit-rules";
export { AVATAR_UPLOAD, BRAND_LIMITS, COLOR_PATTERN, HASHTAG_PATTERN, LANGUAGE_PATTERN };

const text = (label: string, max: number) =>
  userText({
    error: (issue) => (issue.input === undefined ? `${label} is required.` : `${label} must be text.`),
  })
    .trim()
    .max(max, `${label} can be at most ${max} characters.`);

/** A list of short texts: trimmed, none empty, none repeated (ignoring case). */
const textList = (label: string, limits: { items: number; length: number }, item?: z.ZodString) => {
  const inSentence = label.charAt(0).toLowerCase() + label.slice(1);
  return z
    .array(
      (item ?? userText({ error: `Each entry in ${inSentence} must be text.` }))
        .trim()
        .min(1, `Entries in ${inSentence} cannot be empty.`)
        .max(limits.length, `Each entry in ${inSentence} can be at most ${limits.length} characters.`),
      { error: `${label} must be a list of texts.` },
    )
    .max(limits.items, `${label} can have at most ${limits.items} entries.`)
    .superRefine((items, ctx) => {
      const seen = new Set<string>();
      items.forEach((entry, index) => {
        const key = entry.toLowerCase();
        if (seen.has(key)) {
          ctx.addIssue({ code: "custom", path: [index], message: `"${entry}" is already in ${inSentence}.` });
        }
        seen.add(key);
      });
    });
};

const color = (label: string) =>
  userText({ error: `${label} must be text.` })
    .trim()
    .regex(COLOR_PATTERN, `${label} must be a hex colour like #1F2937.`)
    .toUpperCase();

const LANGUAGE_HINT = "Use a language code such as en, de or pt-BR (BCP 47).";

/** One BCP 47 tag, spelled canonically (pt-br → pt-BR); an unknown one is named in the error. */
export const languageTag = (label = "The language") =>
  userText({ error: `${label} must be text.` })
    .trim()
    .max(35, LANGUAGE_HINT)
    .transform((tag, ctx) => {
      const canonical = canonicalLanguageTag(tag);
      if (canonical) return canonical;
      ctx.addIssue({ code: "custom", message: `"${tag}" is not a language we know. ${LANGUAGE_HINT}` });
      return z.NEVER;
    });

/** A list of languages: at least one, at most MAX_LANGUAGES, none repeated (after canonical spelling). */
export const languageList = (label: string) =>
  z
    .array(languageTag(`Each entry in ${label}`), { error: `${label} must be a list of language codes.` })
    .min(1, `${label} needs at least one language.`)
    .max(MAX_LANGUAGES, `${label} can have at most ${MAX_LANGUAGES} entries.`)
    .superRefine((tags, ctx) => {
      const seen = new Set<string>();
      tags.forEach((tag, index) => {
        if (seen.has(tag))
          ctx.addIssue({ code: "custom", path: [index], message: `"${tag}" is listed twice.` });
        seen.add(tag);
      });
    });

export const brandFields = {
  name: text("The name", BRAND_LIMITS.name)
    .min(1, "Give the brand a name.")
    .meta({ example: "Northwind Coffee" })
    .describe("Brand name, 1 to 80 characters."),
  tone: text("The tone", BRAND_LIMITS.tone)
    .meta({ example: "warm, upbeat and confident" })
    .describe("How the brand sounds, at most 200 characters. Post generation needs it."),
  voice: text("The voice", BRAND_LIMITS.voice)
    .meta({
      example: "We talk like a friendly barista: short sentences, concrete sensory detail, no jargon.",
    })
    .describe("How the brand writes, at most 1,000 characters. Post generation needs it."),
  audience: text("The audience", BRAND_LIMITS.audience)
    .meta({ example: "Busy urban professionals aged 25 to 40" })
    .describe("Who the posts are for, at most 500 characters."),
  language: languageTag()
    .meta({ example: "en" })
    .describe(
      "The brand's main language (BCP 47), always languages[0]. Setting it alone makes it the main language and keeps the others.",
    ),
  languages: languageList("The languages")
    .meta({ example: ["en", "es"] })
    .describe(
      `Every language the brand speaks (BCP 47 tags, at most ${MAX_LANGUAGES}), the main one first. One brief can give a post in each; each channel connection has one of them.`,
    ),
  values: textList("Values", BRAND_LIMITS.values)
    .meta({ example: ["craft", "fair trade"] })
    .describe("Brand values: at most 10, each at most 60 characters."),
  doList: textList("The do list", BRAND_LIMITS.doList)
    .meta({ example: ["mention the origin of the beans"] })
    .describe("What posts always do: at most 15, each at most 200 characters."),
  dontList: textList("The don't list", BRAND_LIMITS.dontList)
    .meta({ example: ["make health claims"] })
    .describe("What posts never do: at most 15, each at most 200 characters."),
  bannedWords: textList("The banned words", BRAND_LIMITS.bannedWords)
    .meta({ example: ["cheap", "miracle"] })
    .describe("Words a post must never contain: at most 50, each at most 40 characters."),
  defaultHashtags: textList(
    "The default hashtags",
    BRAND_LIMITS.defaultHashtags,
    userText({ error: "Each hashtag must be text." }).regex(
      HASHTAG_PATTERN,
      "A hashtag is # followed by letters, digits or _, like #NorthwindCoffee.",
    ),
  )
    .meta({ example: ["#NorthwindCoffee"] })
    .describe("Hashtags posts prefer: at most 5, each # followed by letters, digits or _."),
  primaryColor: color("The primary colour")
    .meta({ example: "#3B2F2F" })
    .describe("Main brand colour as #RRGGBB; videos use it."),
  secondaryColor: color("The secondary colour")
    .meta({ example: "#E0A458" })
    .describe("Accent colour as #RRGGBB; videos use it."),
  font: z
    .enum(BRAND_FONT_IDS, {
      error: `The font must be one of ${BRAND_FONT_IDS.join(", ")} (the bundled fonts).`,
    })
    .meta({ example: "sans" })
    .describe(
      `The video font, one of the bundled open fonts: ${BRAND_FONT_IDS.map((id) => `${id} (${BRAND_FONTS[id].family})`).join(", ")}.`,
    ),
  ttsVoice: z
    .enum(TTS_VOICES, { error: `The voice must be one of ${TTS_VOICES.join(", ")}, or null.` })
    .nullable()
    .meta({ example: "nova" })
    .describe(
      "The OpenAI voice videos speak with when the server has OPENAI_API_KEY; null uses the server's TTS_VOICE. Without OpenAI, eSpeak NG speaks in the brand's language.",
    ),
  timeZone: userText({ error: "The time zone must be text." })
    .trim()
    .transform((name, ctx) => {
      const zone = canonicalTimeZone(name);
      if (zone) return zone;
      ctx.addIssue({
        code: "custom",
        message: `"${name.slice(0, 60)}" is not a time zone. Use an IANA name such as Europe/Berlin, America/New_York or UTC.`,
      });
      return z.NEVER;
    })
    .meta({ example: "Europe/Berlin" })
    .describe(
      "The brand's IANA time zone (Europe/Berlin, UTC…). Publication times are stored in UTC and shown, and typed, in this zone; the calendar's days are its days.",
    ),
  requiresApproval: z
    .boolean({ error: "requiresApproval must be true or false." })
    .meta({ example: false })
    .describe("Posts need an owner's approval before they are scheduled or published."),
  imageSource: z
    .enum(IMAGE_SOURCES, { error: 'imageSource must be "cards" or "model".' })
    .meta({ example: "cards" })
    .describe(
      "Where a new draft's media-plan images come from. cards: a branded card drawn at once, at no cost. model: the card at once, then the image model's picture in the background (when the deployment has an image model; each call counts against the image rate limit).",
    ),
  monthlyVideoQuota: z
    .int({ error: "The monthly video quota must be a whole number." })
    .min(0, "The monthly video quota cannot be negative.")
    .max(
      BRAND_LIMITS.monthlyVideoQuota,
      `The monthly video quota can be at most ${BRAND_LIMITS.monthlyVideoQuota}.`,
    )
    .nullable()
    .meta({ example: 30 })
    .describe("Videos per calendar month (UTC); null uses the deployment default (VIDEO_MONTHLY_QUOTA)."),
};

type BrandFieldName = keyof typeof brandFields;
const editableFields = Object.keys(brandFields) as BrandFieldName[];

const unknownFieldMessage = (keys: string[]) =>
  `${keys.map((key) => `"${key}"`).join(", ")} ${keys.length === 1 ? "is not a field" : "are not fields"} you can set. ` +
  `Brand fields are: ${editableFields.join(", ")}.`;

/** Object schema that names unknown keys instead of dropping them, so a typo never silently does nothing. */
const brandObject = <S extends z.ZodRawShape>(shape: S) =>
  z.strictObject(shape, {
    error: (issue) =>
      issue.code === "unrecognized_keys"
        ? unknownFieldMessage(issue.keys)
        : "Send the brand as a JSON object.",
  });

export const createBrandBody = brandObject({
  name: brandFields.name,
  tone: brandFields.tone.default(""),
  voice: brandFields.voice.default(""),
  audience: brandFields.audience.default(""),
  language: brandFields.language.optional(),
  languages: brandFields.languages.optional(),
  values: brandFields.values.default([]),
  doList: brandFields.doList.default([]),
  dontList: brandFields.dontList.default([]),
  bannedWords: brandFields.bannedWords.default([]),
  defaultHashtags: brandFields.defaultHashtags.default([]),
  primaryColor: brandFields.primaryColor.default("#1F2937"),
  secondaryColor: brandFields.secondaryColor.default("#F59E0B"),
  font: brandFields.font.default("sans"),
  ttsVoice: brandFields.ttsVoice.default(null),
  timeZone: brandFields.timeZone.default("UTC"),
  requiresApproval: brandFields.requiresApproval.default(false),
  imageSource: brandFields.imageSource.default("cards"),
  monthlyVideoQuota: brandFields.monthlyVideoQuota.default(null),
}).meta({ id: "CreateBrandRequest" });

export const updateBrandBody = brandObject({
  name: brandFields.name.optional(),
  tone: brandFields.tone.optional(),
  voice: brandFields.voice.optional(),
  audience: brandFields.audience.optional(),
  language: brandFields.language.optional(),
  languages: brandFields.languages.optional(),
  values: brandFields.values.optional(),
  doList: brandFields.doList.optional(),
  dontList: brandFields.dontList.optional(),
  bannedWords: brandFields.bannedWords.optional(),
  defaultHashtags: brandFields.defaultHashtags.optional(),
  primaryColor: brandFields.primaryColor.optional(),
  secondaryColor: brandFields.secondaryColor.optional(),
  font: brandFields.font.optional(),
  ttsVoice: brandFields.ttsVoice.optional(),
  timeZone: brandFields.timeZone.optional(),
  requiresApproval: brandFields.requiresApproval.optional(),
  imageSource: brandFields.imageSource.optional(),
  monthlyVideoQuota: brandFields.monthlyVideoQuota.optional(),
})
  .refine((body) => Object.keys(body).length > 0, "Send at least one field to change.")
  .meta({ id: "UpdateBrandRequest", minProperties: 1 });

export type CreateBrandInput = z.output<typeof createBrandBody>;
export type UpdateBrandInput = z.output<typeof updateBrandBody>;

export const brandParams = z.object({ brandId: idOf("brd") });

const mediaPath = z
  .string()
  .meta({
    example:
      "/media/avatars/brd_7Hq2mXbV9kLr3NpQ/Xk2p9QvL0aRt/image.png?exp=1747820412&sig=Jx0c2H8qQkz4bW6mVn1pR7tY3uE5iO9aS2dF4gH6jK8",
  })
  .describe(
    "A signed URL of the file (a presigned S3 URL, or a path on this app), with HTTP Range support. It expires after MEDIA_URL_TTL_SECONDS (default 7 days); every response signs afresh.",
  );

export const brandResponse = z
  .object({
    brandId: idOf("brd"),
    ...brandFields,
    timeZone: z
      .string()
      .meta({ example: "Europe/Berlin" })
      .describe(
        "The brand's IANA time zone: publication times show in it, and the calendar's days are its days.",
      ),
    effectiveMonthlyVideoQuota: z
      .int()
      .meta({ example: 30 })
      .describe("The quota that applies: monthlyVideoQuota, or the deployment default when that is null."),
    role: z
      .enum(BRAND_ROLES)
      .meta({ example: "owner" })
      .describe("The caller's role on this brand (lib/contracts/permissions.ts says what it may do)."),
    avatarStatus: z
      .enum(AVATAR_STATUSES)
      .meta({ example: "ready" })
      .describe("none: no avatar; training: an upload is being prepared; ready; failed: see avatarError."),
    avatarUrl: mediaPath.nullable().describe("The uploaded avatar image (metadata stripped), or null."),
    avatarFrameUrl: mediaPath
      .nullable()
      .describe(
        "The prepared 512×512 circular frame that avatar videos use; set when avatarStatus is ready.",
      ),
    avatarError: z
      .string()
      .nullable()
      .meta({ example: null })
      .describe("Why the last avatar training failed; null unless avatarStatus is failed."),
    avatarTrainingEndsAt: isoDateTime
      .nullable()
      .meta({ example: null })
      .describe("Estimated end of the avatar training; null unless avatarStatus is training."),
    logoUrl: mediaPath
      .nullable()
      .describe("The brand's logo as a PNG (an SVG upload is rasterised), or null; videos show it."),
    musicUrl: mediaPath
      .nullable()
      .describe(
        "The brand's music track as uploaded (MP3, AAC or WAV), or null; videos play it under the voice.",
      ),
    createdAt: isoDateTime.meta({ example: "2025-05-01T09:30:00.000Z" }),
    updatedAt: isoDateTime.meta({ example: "2025-05-02T14:05:00.000Z" }),
  })
  .meta({ id: "Brand" });

export type BrandResponse = z.infer<typeof brandResponse>;

export const brandListResponse = z
  .object({ items: z.array(brandResponse).describe("Brands the caller is a member of, by name.") })
  .meta({ id: "BrandList" });

const channelExamples = z
  .string()
  .nullable()
  .describe(
    "The examples a new draft on this channel adds to its prompt (the channel's best posts with their measured patterns, and the weakest posts' patterns to avoid), exactly as sent; null while the channel has fewer than 10 measured posts older than 48 h.",
  );

export const brandContextResponse = brandResponse
  .pick({
    brandId: true,
    name: true,
    tone: true,
    voice: true,
    audience: true,
    language: true,
    languages: true,
    values: true,
    doList: true,
    dontList: true,
    bannedWords: true,
    defaultHashtags: true,
    avatarStatus: true,
    updatedAt: true,
  })
  .extend({
    prompt: z
      .string()
      .meta({
        example:
          'You are the social media copywriter for the brand "Northwind Coffee". Write in English.\n\nTone: warm, upbeat and confident\n\nVoice: We talk like a friendly barista.',
      })
      .describe("The exact system text post generation sends to the model for this brand."),
    examples: z
      .object({ linkedin: channelExamples, instagram: channelExamples, telegram: channelExamples })
      .describe("What new drafts learn from the brand's results, per channel (issue 41)."),
  })
  .meta({ id: "BrandContext" });

export type BrandContextResponse = z.infer<typeof brandContextResponse>;

export const uploadAvatarBody = z
  .object({
    [AVATAR_UPLOAD.field]: z
      .string()
      .meta({ format: "binary" })
      .describe(
        "The image: PNG, JPEG or WebP (checked by its bytes), at most 5 MB, at least 128×128 pixels.",
      ),
  })
  .meta({ id: "UploadAvatarRequest" });

const MUSIC_MB = MUSIC_LIMITS.maxBytes / (1024 * 1024);
const LOGO_MB = LOGO_LIMITS.maxBytes / (1024 * 1024);
const LOGO_MAX_SIDE = Math.sqrt(LOGO_LIMITS.maxPixels);

export const uploadLogoBody = z
  .object({
    [KIT_UPLOAD_FIELD]: z
      .string()
      .meta({ format: "binary" })
      .describe(
        `The logo: PNG, JPEG or SVG (checked by its bytes), at most ${LOGO_MB} MB and ${LOGO_MAX_SIDE}×${LOGO_MAX_SIDE} pixels.`,
      ),
  })
  .meta({ id: "UploadLogoRequest" });

export const uploadMusicBody = z
  .object({
    [KIT_UPLOAD_FIELD]: z
      .string()
      .meta({ format: "binary" })
      .describe(`The track: MP3, AAC (ADTS or M4A) or WAV, checked by ffprobe, at most ${MUSIC_MB} MB.`),
  })
  .meta({ id: "UploadMusicRequest" });

export const brandPreviewQuery = z.object({
  aspectRatio: z
    .enum(VIDEO_ASPECT_RATIOS)
    .default("9:16")
    .describe("The frame's shape (default 9:16); the short side is 720 px, as in videos."),
  primaryColor: brandFields.primaryColor
    .optional()
    .describe("Preview this primary colour instead of the saved one."),
  secondaryColor: brandFields.secondaryColor
    .optional()
    .describe("Preview this secondary colour instead of the saved one."),
  font: brandFields.font.optional().describe("Preview this font instead of the saved one."),
});

export const brandPreviewResponse = z
  .object({
    imageUrl: z
      .string()
      .meta({ example: "data:image/jpeg;base64,/9j/4AAQSkZJRgABAQAAAQABAAD…" })
      .describe("The frame as a data: URL of a JPEG, drawn by the video renderer's own filter graph."),
    width: z.int().meta({ example: 720 }),
    height: z.int().meta({ example: 1280 }),
    aspectRatio: z.enum(VIDEO_ASPECT_RATIOS).meta({ example: "9:16" }),
  })
  .meta({ id: "BrandPreviewFrame" });

export type BrandPreviewFrame = z.infer<typeof brandPreviewResponse>;

export const listBrands = defineOperation({
  ...ROUTES.listBrands,
  title: "List brands",
  auth: "bearer",
  summary: "Lists the brands the caller is a member of, with every field.",
  responses: { 200: { description: "The caller's brands, by name.", schema: brandListResponse } },
  errors: ["service_unavailable"],
});

export const createBrand = defineOperation({
  ...ROUTES.createBrand,
  title: "Create brand",
  auth: "bearer",
  summary: "Creates a brand profile; the caller becomes its owner.",
  body: createBrandBody,
  responses: {
    201: { description: "The brand was created.", schema: brandResponse, headers: ["Location"] },
  },
  errors: ["invalid_request", "payload_too_large", "service_unavailable"],
});

export const getBrand = defineOperation({
  ...ROUTES.getBrand,
  title: "Get brand",
  auth: "bearer",
  permission: "brand.read",
  summary: "Returns one brand profile, with its avatar state.",
  pathParams: brandParams,
  responses: { 200: { description: "The brand.", schema: brandResponse } },
});

export const updateBrand = defineOperation({
  ...ROUTES.updateBrand,
  title: "Update brand",
  auth: "bearer",
  permission: "brand.update",
  summary: "Changes the fields sent and leaves the others as they are.",
  pathParams: brandParams,
  body: updateBrandBody,
  responses: { 200: { description: "The brand after the change.", schema: brandResponse } },
  errors: ["invalid_request", "payload_too_large"],
});

export const brandContext = defineOperation({
  ...ROUTES.brandContext,
  title: "Brand context for AI",
  auth: "bearer",
  permission: "brand.read",
  summary: "Returns the brand context that AI generation uses, with the exact system prompt.",
  pathParams: brandParams,
  responses: { 200: { description: "The brand context and prompt.", schema: brandContextResponse } },
});

export const uploadAvatar = defineOperation({
  ...ROUTES.uploadAvatar,
  title: "Upload avatar",
  auth: "bearer",
  permission: "brand.update",
  summary: "Uploads the brand's avatar image and starts its training; a new upload replaces the old avatar.",
  pathParams: brandParams,
  body: uploadAvatarBody,
  bodyContentType: "multipart/form-data",
  responses: {
    202: {
      description: "The image was stored and training started: avatarStatus is training.",
      schema: brandResponse,
      headers: ["Location", "Retry-After"],
    },
  },
  errors: ["invalid_request", "provider_unavailable", "payload_too_large"],
});

export const uploadLogo = defineOperation({
  ...ROUTES.uploadLogo,
  title: "Upload logo",
  auth: "bearer",
  permission: "brand.update",
  summary:
    "Uploads the brand's logo (PNG, JPEG or SVG, rasterised to a PNG); a new upload replaces the old logo. Owners only.",
  pathParams: brandParams,
  body: uploadLogoBody,
  bodyContentType: "multipart/form-data",
  uploadMaxBytes: LOGO_LIMITS.maxBytes,
  responses: { 200: { description: "The brand with its new logoUrl.", schema: brandResponse } },
  errors: ["invalid_request", "payload_too_large"],
});

export const deleteLogo = defineOperation({
  ...ROUTES.deleteLogo,
  title: "Delete logo",
  auth: "bearer",
  permission: "brand.update",
  summary: "Removes the brand's logo; videos are made without one. Owners only.",
  pathParams: brandParams,
  responses: { 200: { description: "The brand, logoUrl null.", schema: brandResponse } },
});

export const uploadMusic = defineOperation({
  ...ROUTES.uploadMusic,
  title: "Upload music",
  auth: "bearer",
  permission: "brand.update",
  summary:
    "Uploads the brand's music track (MP3, AAC or WAV, at most 20 MB, checked by ffprobe); a new upload replaces the old one. Owners only.",
  pathParams: brandParams,
  body: uploadMusicBody,
  bodyContentType: "multipart/form-data",
  uploadMaxBytes: MUSIC_LIMITS.maxBytes,
  responses: { 200: { description: "The brand with its new musicUrl.", schema: brandResponse } },
  errors: ["invalid_request", "payload_too_large"],
});

export const deleteMusic = defineOperation({
  ...ROUTES.deleteMusic,
  title: "Delete music",
  auth: "bearer",
  permission: "brand.update",
  summary: "Removes the brand's music track; videos have only the voice. Owners only.",
  pathParams: brandParams,
  responses: { 200: { description: "The brand, musicUrl null.", schema: brandResponse } },
});

export const brandPreview = defineOperation({
  ...ROUTES.brandPreview,
  title: "Brand preview frame",
  auth: "bearer",
  permission: "brand.read",
  summary:
    "Renders one frame of a video in the brand kit (colours, font, logo, caption and overlay text in the safe areas) with the video renderer.",
  pathParams: brandParams,
  query: brandPreviewQuery,
  responses: { 200: { description: "The frame.", schema: brandPreviewResponse } },
  errors: ["invalid_request"],
});
