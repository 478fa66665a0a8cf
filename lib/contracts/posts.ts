import { z } from "zod";
import { KIT_UPLOAD_FIELD } from "./brand-kit-rules";
import { languageList } from "./brands";
import {
  cursorPage,
  errorEnvelope,
  idOf,
  isoDateTime,
  isStorableText,
  pageCursor,
  STORABLE_TEXT_MESSAGE,
  userText,
} from "./common";
import { IMAGE_JOB_STATES, POST_STATUSES } from "./enums";
import { learnedFrom } from "./learning";
import { defineOperation } from "./operation";
import {
  ASPECT_RATIOS,
  BRIEF_LIMITS,
  CHANNELS,
  GOALS,
  HASHTAG_MAX_LENGTH,
  HASHTAG_PATTERN,
  MAX_CAPTION_LENGTH,
  MAX_HASHTAGS,
  MAX_MEDIA_ITEMS,
  MEDIA_FORMATS,
  MEDIA_ITEM_LIMITS,
  mediaFormatFor,
  POST_STREAM_CONTENT_TYPE,
} from "./post-rules";
import { ROUTES } from "./routes";
import { videoJob } from "./video";

// The rules the browser also needs live zod-free in post-rules.ts; the contract re-exports them.
export * from "./post-rules";

export const channel = z.enum(CHANNELS).describe("Where the post will be published.");
export const goal = z.enum(GOALS).describe("What the post should achieve.");

export const hashtag = userText()
  .max(HASHTAG_MAX_LENGTH)
  .regex(HASHTAG_PATTERN, "A hashtag is # followed by letters, digits or _.")
  .meta({ example: "#SpecialtyCoffee" });

export const hashtagList = z
  .array(hashtag)
  .max(MAX_HASHTAGS, `At most ${MAX_HASHTAGS} hashtags.`)
  .superRefine((tags, ctx) => {
    const seen = new Set<string>();
    tags.forEach((tag, index) => {
      const key = tag.toLowerCase();
      if (seen.has(key)) ctx.addIssue({ code: "custom", path: [index], message: `${tag} is a duplicate.` });
      seen.add(key);
    });
  })
  .describe(`Up to ${MAX_HASHTAGS} hashtags, no duplicates ignoring case.`);

export const mediaItem = z.object({
  type: z.enum(["image", "video"]),
  description: userText()
    .trim()
    .min(1)
    .max(MEDIA_ITEM_LIMITS.description)
    .describe("What the image or video shows, for whoever makes it."),
  altText: userText().trim().min(1).max(MEDIA_ITEM_LIMITS.altText).describe("Alt text for screen readers."),
  aspectRatio: z.enum(ASPECT_RATIOS),
  overlayText: userText()
    .trim()
    .min(1)
    .max(MEDIA_ITEM_LIMITS.overlayText)
    .optional()
    .describe("Text set on the image, if any."),
  imageUrl: z
    .string()
    .max(4096)
    .nullable()
    .optional()
    .describe(
      "The item's image (generated, drawn or uploaded with the media-image operations): a signed URL that expires, or null. Send it back unchanged in an update to keep the image (even when its signature has expired); leave it out to drop it.",
    ),
  imageJob: z
    .object({
      state: z.enum(IMAGE_JOB_STATES),
      error: z.string().optional().describe("Why the model image failed (the card stays); only when failed."),
    })
    .nullable()
    .optional()
    .meta({ example: { state: "generating" } })
    .describe(
      "The image model's picture for this item when the brand's imageSource is model: pending, generating, ready (it is the image now) or failed (the card stays, error says why). Null when none was asked for. Read-only: ignored in an update.",
    ),
});

export const mediaPlan = z
  .object({
    format: z.enum(MEDIA_FORMATS),
    items: z.array(mediaItem).max(MAX_MEDIA_ITEMS, `At most ${MAX_MEDIA_ITEMS} media items.`),
  })
  .superRefine((plan, ctx) => {
    const expected = mediaFormatFor(plan.items);
    if (plan.format !== expected) {
      ctx.addIssue({
        code: "custom",
        path: ["format"],
        message: `A plan with these items is "${expected}", not "${plan.format}".`,
      });
    }
  })
  .meta({
    example: {
      format: "single_image",
      items: [
        {
          type: "image",
          description: "Close-up of a flat white on the café counter, morning light, brand colours.",
          altText: "A flat white in a ceramic cup on a wooden café counter.",
          aspectRatio: "4:5",
        },
      ],
    },
  });

export type MediaPlan = z.infer<typeof mediaPlan>;

export const caption = userText().max(MAX_CAPTION_LENGTH).describe("The post text, without the hashtags.");

export const postAsset = z.object({
  type: z.enum(["image", "video", "link"]),
  url: z
    .url({ protocol: /^https?$/ })
    .max(BRIEF_LIMITS.assetUrl)
    .refine(isStorableText, { message: STORABLE_TEXT_MESSAGE, abort: true }),
  description: userText().trim().max(BRIEF_LIMITS.assetDescription).optional(),
});

export const generatePostBody = z.object({
  brandId: idOf("brd"),
  channel,
  topic: userText()
    .max(BRIEF_LIMITS.topic)
    .describe("What the post is about: at least 3 words and 15 characters.")
    .meta({ example: "Our new Ethiopian single-origin espresso, roasted in small batches" }),
  goal,
  assets: z
    .array(postAsset)
    .max(BRIEF_LIMITS.assets)
    .optional()
    .describe("Images, videos or links to use in the post."),
  toneOverride: userText()
    .trim()
    .max(BRIEF_LIMITS.toneOverride)
    .optional()
    .describe("Replaces the brand's tone for this post only.")
    .meta({ example: "playful and light" }),
  seed: z
    .number()
    .int()
    .min(0)
    .max(2 ** 31 - 1)
    .optional()
    .describe("Variant seed. The same brief and seed give the same draft; a new seed, a new variant."),
  languages: languageList("languages")
    .optional()
    .meta({ example: ["en", "es"] })
    .describe(
      "The languages to write the post in, each one of the brand's languages; one draft per language, each written in that language in the brand's voice (not translated), all in one post group. Absent: the brand's main language only. The streamed operation takes one language at a time.",
    ),
  groupId: idOf("pst")
    .optional()
    .describe(
      "Add the drafts to this post group of the brand (a post's groupId) instead of starting a new one: regenerating one language leaves the group's other languages as they are.",
    ),
  learnFromResults: z
    .boolean()
    .optional()
    .describe(
      "Learn from results (default true): with at least 10 measured posts on the channel older than 48 h, the channel's 3 best posts go into the prompt as examples and its 3 weakest posts' patterns as what to avoid. false writes this draft without them.",
    ),
});

export type GeneratePostInput = z.infer<typeof generatePostBody>;

const videoUrl = userText()
  .max(2048)
  .refine((value) => value.startsWith("/") || /^https?:\/\//i.test(value), {
    message: "Must be an http(s) URL or a path on this site.",
  });

export const updatePostBody = z
  .object({
    caption: caption.optional(),
    mediaPlan: mediaPlan.optional(),
    hashtags: hashtagList.optional(),
    videoUrl: videoUrl
      .nullable()
      .optional()
      .describe(
        "The finished video to show with the post, or null. A link to one of the brand's own videos (any link the API gave for it, expired or not) is kept by the video's key and signed afresh on every read; a media file of this site that is not the brand's (another brand's video) is 400 invalid_request; another site's URL is kept as sent.",
      ),
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined), {
    message: "Send at least one of caption, mediaPlan, hashtags or videoUrl.",
  })
  .meta({ minProperties: 1 });

export type UpdatePostInput = z.infer<typeof updatePostBody>;

export const postParams = z.object({ postId: idOf("pst") });

export const mediaItemParams = z.object({
  postId: idOf("pst"),
  index: z.coerce
    .number({ error: "The index must be a whole number: 0 for the first media item." })
    .int("The index must be a whole number: 0 for the first media item.")
    .min(0, "The index must be 0 or more.")
    .max(MAX_MEDIA_ITEMS - 1, `The index must be below ${MAX_MEDIA_ITEMS}.`)
    .describe("The media item's position in mediaPlan.items, from 0."),
});

export const uploadMediaImageBody = z
  .object({
    [KIT_UPLOAD_FIELD]: z
      .string()
      .meta({ format: "binary" })
      .describe(
        "The image: PNG, JPEG or WebP (checked by its bytes), at most 5 MB; cover-cropped to the item's aspect ratio.",
      ),
  })
  .meta({ id: "UploadMediaImageRequest" });

export const listPostsQuery = z.object({
  brandId: idOf("brd"),
  cursor: pageCursor("pst").optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});

export const post = z
  .object({
    postId: idOf("pst"),
    brandId: idOf("brd"),
    channel,
    goal,
    topic: z.string(),
    toneOverride: z.string().nullable(),
    language: z
      .string()
      .meta({ example: "en" })
      .describe("The language the post is written in (BCP 47): one of the brand's languages."),
    groupId: idOf("pst").describe(
      "The post group: the drafts one brief gave in the brand's languages share it (the id of the group's first post; a post on its own is its own group). Each is approved and published on its own.",
    ),
    assets: z.array(postAsset),
    caption,
    mediaPlan,
    hashtags: hashtagList,
    status: z.enum(POST_STATUSES).describe("DESIGN §10: a new post is always `draft`."),
    videoUrl: z
      .string()
      .nullable()
      .describe(
        "The post's video, or null. One of the brand's own videos comes back as a freshly signed URL on every read.",
      ),
    videoJob: videoJob
      .pick({
        jobId: true,
        aspectRatio: true,
        durationSeconds: true,
        thumbnailUrl: true,
        captions: true,
        captionsUrl: true,
      })
      .nullable()
      .meta({ example: null })
      .describe(
        "When videoUrl is one of the brand's own videos: the job that made it, with its shape, length, poster and captions (signed like the job's), for a player's poster and <track>. Null for another site's video or none.",
      ),
    version: z
      .string()
      .describe(
        "The content's version: a hash of what a publication would send (caption, hashtags, media plan with its images, video). Any edit changes it; GET answers it as the ETag. An approval names it and records it (DESIGN §11).",
      )
      .meta({ example: "q4O2k7xv8kqT1yQb3m0Jx2a1b9cWcW6P1oVf0yXQz1E" }),
    approvedVersion: z
      .string()
      .nullable()
      .describe(
        "The version the last approval approved; null before any. Equal to `version` while approved.",
      ),
    review: z
      .object({
        action: z.enum(["submitted", "approved", "changes_requested"]),
        by: idOf("usr").nullable().describe("Who acted; null once that account is deleted."),
        at: isoDateTime,
        comment: z.string().nullable(),
      })
      .nullable()
      .meta({ example: null })
      .describe(
        "The last approval step: submitted, approved, or changes requested (with the comment); null before any.",
      ),
    generation: z.object({
      provider: z.string().describe("local, openai or openai-compatible."),
      model: z.string(),
      seed: z.number().int(),
      latencyMs: z.number().int(),
      inputTokens: z.number().int().nullable(),
      outputTokens: z.number().int().nullable(),
    }),
    learnedFrom: learnedFrom
      .nullable()
      .describe(
        "What the draft learned from the brand's results on its channel: the best posts it took as examples, or why it took none. Null for posts written before drafts learned from results.",
      ),
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
  })
  .meta({ id: "Post" });

export type PostView = z.infer<typeof post>;

export const generatedPost = post
  .extend({
    versions: z
      .array(post)
      .describe(
        "Every draft this call wrote, one per requested language in the order asked; the first is this post.",
      ),
  })
  .meta({ id: "GeneratedPost" });

export type GeneratedPostView = z.infer<typeof generatedPost>;

export const postPage = cursorPage(post);

/**
 * Generate post, streamed: its own operation (POST /api/content/create/stream, so the JSON operation's 201 is
 * exactly a Post for a generated client) that answers 200 `application/x-ndjson`, one JSON event a line while the model writes (DESIGN §7 streamObject). Partial drafts grow field by field
 * (caption, then hashtags, then the media plan); `retry` means the draft starts over; the last line is `done`
 * with the saved post (the 201 body of the JSON answer without `versions`) or `error` with the error envelope's error.
 */

const partialText = z.string().optional();
export const partialDraft = z.object({
  caption: partialText,
  hashtags: z.array(z.string().nullish()).optional(),
  mediaPlan: z
    .object({
      format: partialText,
      items: z
        .array(
          z
            .object({
              type: partialText,
              description: partialText,
              altText: partialText,
              aspectRatio: partialText,
              overlayText: z.string().nullable().optional(),
            })
            .nullish(),
        )
        .optional(),
    })
    .optional(),
});

export type PartialDraft = z.infer<typeof partialDraft>;

export const postStreamEvent = z.discriminatedUnion("type", [
  z.object({ type: z.literal("partial"), draft: partialDraft }),
  z.object({ type: z.literal("retry"), attempt: z.int() }),
  z.object({ type: z.literal("done"), post }),
  z.object({ type: z.literal("error"), error: errorEnvelope.shape.error }),
]);

export type PostStreamEvent = z.infer<typeof postStreamEvent>;

export const generatePost = defineOperation({
  ...ROUTES.generatePost,
  title: "Generate post",
  auth: "bearer",
  permission: "post.create",
  summary:
    "Writes a draft post (caption, media plan, hashtags) for a channel from a brief in the brand's voice and saves it.",
  body: generatePostBody,
  responses: {
    201: {
      description:
        "The drafts were generated and saved: the first language's post, with every language's in versions.",
      schema: generatedPost,
      headers: ["Location"],
    },
  },
  errors: [
    "invalid_request",
    "not_found",
    "brief_too_short",
    "brand_context_missing",
    "language_unsupported",
    "moderation_required",
    "generation_failed",
    "rate_limited",
    "idempotency_conflict",
    "payload_too_large",
  ],
});

export const generatePostStream = defineOperation({
  ...ROUTES.generatePostStream,
  title: "Generate post (streamed)",
  auth: "bearer",
  permission: "post.create",
  summary:
    "Generate post, streamed: the draft arrives as NDJSON events while the model writes it, then the saved post.",
  body: generatePostBody,
  responses: {
    200: {
      description: "One JSON event a line (application/x-ndjson), ending with `done` or `error`.",
      schema: postStreamEvent,
    },
  },
  stream: {
    contentType: POST_STREAM_CONTENT_TYPE,
    description:
      "The draft streamed as one JSON event a line while it is written " +
      "(`partial` drafts that grow caption, then hashtags, then mediaPlan; `retry` when it starts over), ending " +
      "with `done` and the saved post (the 201 body without versions) or `error` and the error envelope's error. Brief, brand and " +
      "auth errors are answered before streaming, as JSON. Closing the connection cancels it and saves nothing. " +
      "Idempotency-Key is refused here (it belongs to the JSON operation).",
    event: postStreamEvent,
  },
  errors: [
    "invalid_request",
    "not_found",
    "brief_too_short",
    "brand_context_missing",
    "language_unsupported",
    "moderation_required",
    "generation_failed",
    "rate_limited",
    "payload_too_large",
  ],
});

export const reviewEvent = z
  .object({
    action: z.enum(["submitted", "approved", "changes_requested"]),
    by: idOf("usr").nullable().describe("Who acted; null once that account is deleted."),
    byEmail: z
      .string()
      .nullable()
      .describe("Their email when they acted.")
      .meta({ example: "maria@example.com" }),
    at: isoDateTime,
    version: z
      .string()
      .nullable()
      .describe("The post's version they acted on (null for steps taken before versions were recorded)."),
    comment: z.string().nullable(),
  })
  .meta({ id: "ReviewEvent" });

export const postDetail = post
  .extend({
    reviewHistory: z
      .array(reviewEvent)
      .describe(
        "Every approval step, oldest first: who submitted which version, who asked for changes (and the comment), who approved which version (at most 100).",
      ),
  })
  .meta({ id: "PostDetail" });

export type PostDetailView = z.infer<typeof postDetail>;

export const getPost = defineOperation({
  ...ROUTES.getPost,
  title: "Get post",
  auth: "bearer",
  permission: "post.read",
  summary: "Returns one saved post, with its approval history; its version is the ETag.",
  pathParams: postParams,
  responses: { 200: { description: "The post and its review history.", schema: postDetail } },
});

export const updatePost = defineOperation({
  ...ROUTES.updatePost,
  title: "Update post",
  auth: "bearer",
  permission: "post.update",
  summary: "Saves edits to a post's caption, media plan, hashtags or video under the channel's rules.",
  pathParams: postParams,
  body: updatePostBody,
  responses: { 200: { description: "The updated post.", schema: post } },
  errors: ["invalid_request", "payload_too_large"],
});

export const listPosts = defineOperation({
  ...ROUTES.listPosts,
  title: "List posts",
  auth: "bearer",
  permission: "post.read",
  summary: "Lists a brand's posts, newest first, a page at a time.",
  query: listPostsQuery,
  responses: { 200: { description: "A page of posts.", schema: postPage } },
  errors: ["invalid_request", "not_found"],
});

export const generateMediaImage = defineOperation({
  ...ROUTES.generateMediaImage,
  title: "Generate media image",
  auth: "bearer",
  permission: "post.update",
  summary:
    "Makes the image of one media-plan item in its aspect ratio: with an image model (OPENAI_API_KEY or OPENAI_BASE_URL) from its description and the brand colours, else a branded card drawn locally. Replaces the item's image. Counted against RATE_LIMIT_IMAGE_PER_MINUTE per credential (429 rate_limited past it), so one user cannot spend the image model's budget.",
  pathParams: mediaItemParams,
  responses: { 200: { description: "The post, the item with its new imageUrl.", schema: post } },
  errors: ["invalid_request", "generation_failed", "rate_limited"],
});

export const uploadMediaImage = defineOperation({
  ...ROUTES.uploadMediaImage,
  title: "Upload media image",
  auth: "bearer",
  permission: "post.update",
  summary:
    "Replaces one media-plan item's image with an uploaded one, cover-cropped to the item's aspect ratio.",
  pathParams: mediaItemParams,
  body: uploadMediaImageBody,
  bodyContentType: "multipart/form-data",
  responses: { 200: { description: "The post, the item with its new imageUrl.", schema: post } },
  errors: ["invalid_request", "payload_too_large"],
});

export const deleteMediaImage = defineOperation({
  ...ROUTES.deleteMediaImage,
  title: "Delete media image",
  auth: "bearer",
  permission: "post.update",
  summary: "Removes one media-plan item's image; the item stays in the plan.",
  pathParams: mediaItemParams,
  responses: { 200: { description: "The post, the item's imageUrl null.", schema: post } },
  errors: ["invalid_request"],
});
