import { z } from "zod";
import { ERROR_CODE_LIST } from "@/lib/errors/error-codes";
import { cursorPage, idOf, isoDateTime, pageCursor, userText } from "./common";
import { VIDEO_JOB_STATUSES } from "./enums";
import { defineOperation } from "./operation";
import { ROUTES } from "./routes";
import {
  SCRIPT_MAX_CHARS,
  SCRIPT_MIN_CHARS,
  VIDEO_ASPECT_RATIOS,
  VIDEO_BRIEF_MAX_CHARS,
  VIDEO_MODES,
} from "./video-rules";

// The rules the browser also needs live zod-free in video-rules.ts; the contract re-exports them.
export * from "./video-rules";

export const videoMode = z
  .enum(VIDEO_MODES)
  .describe("`avatar` puts the brand's trained avatar in the frame; `regular` is text and voice only.");

export const videoAspectRatio = z
  .enum(VIDEO_ASPECT_RATIOS)
  .describe("The frame's shape. The renderer makes the short side 720 px (9:16 → 720×1280).");

export const videoJobStatus = z
  .enum(VIDEO_JOB_STATUSES)
  .describe("queued → running → succeeded | failed; canceled from queued or running.");

export type VideoJobStatus = z.infer<typeof videoJobStatus>;

const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (value === null ? undefined : value), schema.optional());

export const generateVideoBody = z
  .object({
    brandId: idOf("brd"),
    postId: optional(idOf("pst")).describe(
      "The post to make the video from (its caption becomes the script). Exactly one of postId or script.",
    ),
    script: optional(
      userText()
        .trim()
        .min(SCRIPT_MIN_CHARS, `Write a script of at least ${SCRIPT_MIN_CHARS} characters.`)
        .max(SCRIPT_MAX_CHARS, `Keep the script to at most ${SCRIPT_MAX_CHARS} characters.`),
    )
      .describe("The words of the video. Exactly one of postId or script.")
      .meta({ example: "Fresh beans, roasted every morning. Come in, say hi, and taste the difference." }),
    mode: videoMode.meta({ example: "regular" }),
    brief: optional(userText().trim().max(VIDEO_BRIEF_MAX_CHARS))
      .describe("Style or length guidance, e.g. “short and snappy” or “slow and calm”.")
      .meta({ example: "short and snappy" }),
    aspectRatio: optional(videoAspectRatio)
      .describe(
        "The frame's shape: 9:16, 4:5, 1:1 or 16:9. Without it the source post's channel decides (instagram → 9:16, linkedin → 1:1, telegram → 16:9); a script is 16:9.",
      )
      .meta({ example: "9:16" }),
    referenceVideoId: optional(idOf("vjb")).describe(
      "An earlier succeeded job of the same brand whose style (its brief) is reused.",
    ),
    captions: optional(z.boolean())
      .describe(
        "Default true. Burn captions into the video, each phrase while it is spoken (the built-in renderer). A WebVTT sidecar comes either way.",
      )
      .meta({ example: true }),
  })
  .superRefine((body, ctx) => {
    if ((body.postId === undefined) === (body.script === undefined)) {
      ctx.addIssue({
        code: "custom",
        path: [body.postId === undefined ? "script" : "postId"],
        message: "Send exactly one of postId or script.",
      });
    }
  })
  // The same rule for OpenAPI readers and generated clients (JSON Schema cannot see superRefine).
  .meta({ oneOf: [{ required: ["postId"] }, { required: ["script"] }] });

export type GenerateVideoInput = z.output<typeof generateVideoBody>;

export const generateVideoResponse = z.object({
  jobId: idOf("vjb"),
  status: z.enum(["queued", "running"]),
  estimatedSeconds: z.number().int().nonnegative().describe("Estimated seconds until the video is ready."),
});

export const videoJobError = z.object({
  code: z.enum(ERROR_CODE_LIST).meta({ example: "generation_failed" }),
  message: z.string(),
  retryable: z.boolean(),
});

export const videoJob = z
  .object({
    jobId: idOf("vjb"),
    brandId: idOf("brd"),
    postId: idOf("pst").nullable(),
    mode: videoMode,
    aspectRatio: videoAspectRatio.meta({ example: "9:16" }),
    status: videoJobStatus,
    progress: z.number().int().min(0).max(100).describe("0 to 100; it never goes down."),
    estimatedSeconds: z
      .number()
      .int()
      .nonnegative()
      .nullable()
      .describe("Seconds left until the video is ready; 0 once it is, null when it never will be."),
    videoUrl: z
      .string()
      .nullable()
      .describe(
        "Set only when the job has succeeded: a signed URL of the MP4 that a <video> element can play and seek (Range). It expires after MEDIA_URL_TTL_SECONDS (default 7 days); each status GET signs afresh.",
      )
      .meta({
        example:
          "/media/videos/vjb_7Hq2mXbV9kLr3NpQ/video.mp4?exp=1747820412&sig=Jx0c2H8qQkz4bW6mVn1pR7tY3uE5iO9aS2dF4gH6jK8",
      }),
    thumbnailUrl: z
      .string()
      .nullable()
      .describe("A signed, expiring URL of a JPEG poster frame, set with videoUrl.")
      .meta({
        example:
          "/media/videos/vjb_7Hq2mXbV9kLr3NpQ/poster.jpg?exp=1747820412&sig=Qm3nB5vC7xZ9lK1jH3gF5dS7aP9oI1uY3tR5eW7qE2r",
      }),
    durationSeconds: z.number().int().nonnegative().nullable(),
    captions: z.boolean().describe("Whether captions are burned into the video."),
    captionsUrl: z
      .string()
      .nullable()
      .describe(
        "Set with videoUrl when the renderer made captions: a signed, expiring URL of a WebVTT (.vtt) file of the spoken phrases and their times, for a <track> element or an upload. Always a link on this site, with S3 media too: browsers load a <track> only from the page's origin.",
      )
      .meta({
        example:
          "/media/videos/vjb_7Hq2mXbV9kLr3NpQ/captions.vtt?exp=1747820412&sig=Vb8nM2kL4jH6gF8dS0aP2oI4uY6tR8eW0qZ2xC4vB6n",
      }),
    voice: z
      .string()
      .nullable()
      .describe(
        "Set with videoUrl: the voice that spoke the video, as `<engine>:<voice>`: `espeak-ng:es` or `espeak-wasm:ar` (eSpeak NG's voice for the post's language; a language eSpeak NG has no voice for is spoken in English, `:en`, with a warning), `openai:<voice>` (OpenAI speech). Null without a voice (see warnings), before the job succeeds, and for hosted renderers.",
      )
      .meta({ example: "espeak-ng:es" }),
    warnings: z
      .array(z.string())
      .describe(
        "What the video lacks though the job succeeded, in words for the user: no voice (no speech engine could speak, and why), an image that could not be read. Empty when nothing is missing.",
      )
      .meta({ example: [] }),
    error: videoJobError.nullable().describe("Set only when the job has failed."),
    createdAt: isoDateTime,
    startedAt: isoDateTime.nullable(),
    finishedAt: isoDateTime.nullable(),
    script: z
      .string()
      .describe("The text the video speaks and shows (a post's caption when made from a post)."),
    brief: z.string().nullable(),
    referenceVideoId: idOf("vjb").nullable(),
  })
  .meta({ id: "VideoJob" });

export type VideoJobView = z.infer<typeof videoJob>;

export const videoJobParams = z.object({ jobId: idOf("vjb") });

export const listVideoJobsQuery = z.object({
  brandId: idOf("brd").optional().describe("Only this brand's jobs. Without it: every brand you can see."),
  postId: idOf("pst").optional().describe("Only jobs made from this post."),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: pageCursor("vjb").optional(),
});

export const videoJobPage = cursorPage(videoJob);

const RETRY_AFTER = "Retry-After";

export const generateVideo = defineOperation({
  ...ROUTES.generateVideo,
  title: "Generate video",
  auth: "bearer",
  permission: "video.create",
  summary: "Creates a video job from a post or a script; poll its status until the video is ready.",
  body: generateVideoBody,
  responses: {
    202: {
      description: "Accepted and queued. Poll Location every Retry-After seconds.",
      schema: generateVideoResponse,
      headers: ["Location", RETRY_AFTER],
    },
  },
  errors: [
    "invalid_request",
    "not_found",
    "brand_not_ready",
    "avatar_training",
    "quota_exceeded",
    "rate_limited",
    "idempotency_conflict",
    "provider_unavailable",
    "payload_too_large",
  ],
});

export const getVideoJobStatus = defineOperation({
  ...ROUTES.getVideoJobStatus,
  title: "Video job status",
  auth: "bearer",
  permission: "video.read",
  summary: "Returns a video job's status, progress and, once it has succeeded, its videoUrl.",
  pathParams: videoJobParams,
  responses: {
    200: {
      description: "The job. Retry-After is set until the job is finished.",
      schema: videoJob,
      headers: ["ETag", RETRY_AFTER, "Cache-Control"],
    },
    304: {
      description: "Nothing changed since the ETag sent in If-None-Match; no body.",
      headers: ["ETag", RETRY_AFTER, "Cache-Control"],
    },
  },
});

export const listVideoJobs = defineOperation({
  ...ROUTES.listVideoJobs,
  title: "List video jobs",
  auth: "bearer",
  permission: "video.read",
  summary: "Lists video jobs, newest first, optionally for one brand or one post.",
  query: listVideoJobsQuery,
  responses: { 200: { description: "A page of jobs.", schema: videoJobPage } },
  errors: ["invalid_request", "not_found"],
});

export const cancelVideoJob = defineOperation({
  ...ROUTES.cancelVideoJob,
  title: "Cancel video job",
  auth: "bearer",
  permission: "video.cancel",
  summary: "Cancels a queued or running video job, stops its render and gives its quota unit back.",
  pathParams: videoJobParams,
  responses: {
    200: { description: "The job, now canceled (also when it already was).", schema: videoJob },
  },
  errors: ["invalid_request", "job_not_cancelable"],
});
