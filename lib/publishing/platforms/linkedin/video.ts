import "server-only";
import { buffer } from "node:stream/consumers";
import { setTimeout as sleep } from "node:timers/promises";
import type { Post } from "@/db/schema";
import { getMediaStorage, storedMediaKey } from "@/lib/media/storage";
import { videoJobOfFile } from "@/lib/posts/post-video";
import { assertBrandMedia, storedVideoKey } from "@/lib/publishing/media-delivery";
import { PlatformError } from "@/lib/publishing/platform-error";
import type { PublishRuleViolation } from "@/lib/publishing/publish-rules";
import type { PublishRun } from "../adapter";
import {
  finalizeLinkedInVideoUpload,
  initializeLinkedInVideoUpload,
  type LinkedInUploadPart,
  linkedinVideoStatus,
  putLinkedInVideoPart,
  putLinkedInVideoThumbnail,
} from "./client";

/**
 * A post's video on LinkedIn (the Videos API): LinkedIn takes a video only as an upload, so it must be a file
 * of our media store, of 75 KB to 500 MB and, when one of the brand's video jobs made it, 3 s to 30 min long.
 * It is read part by part (ranged reads, one part in memory at a time), each part PUT to its signed upload
 * URL, the job's poster PUT as the thumbnail, the ETags sent to finalizeUpload, and the post made once
 * LinkedIn says the video is AVAILABLE.
 */

export const LINKEDIN_VIDEO_MIN_BYTES = 75 * 1024;
export const LINKEDIN_VIDEO_MAX_BYTES = 500 * 1024 * 1024;
export const LINKEDIN_VIDEO_MIN_SECONDS = 3;
export const LINKEDIN_VIDEO_MAX_SECONDS = 30 * 60;
/** A poster larger than this is not sent as the thumbnail (LinkedIn then picks a frame). */
const MAX_THUMBNAIL_BYTES = 10 * 1024 * 1024;
/** LinkedIn's parts are 4 MB; a part far larger than that is not read into memory. */
const MAX_PART_BYTES = 32 * 1024 * 1024;
/** Tries of one part's PUT (and of one status read) before the run fails transiently and retries as a whole. */
const PART_TRIES = 3;
/** How long the run waits for LinkedIn to process the video before it gives up (transiently) and retries. */
export const LINKEDIN_VIDEO_WAIT_MS = 5 * 60_000;

export type LinkedInVideoFile = {
  key: string;
  size: number;
  title: string;
  /** The poster of the job that made the video (a JPEG in the store), sent as LinkedIn's thumbnail. */
  thumbnailKey: string | null;
};

const violation = (
  rule: PublishRuleViolation["rule"],
  limit: number,
  actual: number,
  message: string,
): PublishRuleViolation => ({ channel: "linkedin", rule, limit, actual, withMedia: true, message });

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** The title LinkedIn shows with the video: the post's topic, at most 200 characters. */
const videoTitle = (topic: string) => (topic.length > 200 ? `${topic.slice(0, 199).trimEnd()}…` : topic);

/** The job's poster when the store has it and it is small enough to send. */
async function thumbnailKeyOf(thumbnailUrl: string | null) {
  const key = storedMediaKey(thumbnailUrl);
  const stat = key ? await getMediaStorage().stat(key) : null;
  return stat && stat.size > 0 && stat.size <= MAX_THUMBNAIL_BYTES ? key : null;
}

/**
 * The post's video as LinkedIn takes it, or the rule it breaks: a link to another site (LinkedIn cannot
 * fetch by URL), a file missing from the store, a length outside 3 s–30 min (known when one of the brand's
 * video jobs made the file, to the second), or a size outside 75 KB–500 MB.
 */
export async function linkedinVideo(
  post: Pick<Post, "brandId" | "videoUrl" | "topic">,
): Promise<{ file: LinkedInVideoFile } | { violation: PublishRuleViolation } | null> {
  if (!post.videoUrl) return null;
  const key = storedVideoKey(post.videoUrl);
  if (!key)
    return {
      violation: violation(
        "media_unsupported",
        0,
        1,
        "LinkedIn takes a video only as an upload, and this post's video is a link to another site. Use a video made in Brand Studio, or remove the video.",
      ),
    };
  await assertBrandMedia(post.brandId, key);
  const stat = await getMediaStorage().stat(key);
  if (!stat)
    return {
      violation: violation(
        "media_unsupported",
        0,
        1,
        "The post's video is no longer in the media store. Pick another video, or remove it.",
      ),
    };
  const job = await videoJobOfFile(post.brandId, key);
  const seconds = job?.durationSeconds;
  if (seconds != null && (seconds < LINKEDIN_VIDEO_MIN_SECONDS || seconds > LINKEDIN_VIDEO_MAX_SECONDS)) {
    const tooLong = seconds > LINKEDIN_VIDEO_MAX_SECONDS;
    return {
      violation: violation(
        "media_duration",
        tooLong ? LINKEDIN_VIDEO_MAX_SECONDS : LINKEDIN_VIDEO_MIN_SECONDS,
        seconds,
        tooLong
          ? `The post's video lasts ${Math.ceil(seconds / 60)} minutes; LinkedIn takes videos of at most 30 minutes. Use a shorter video.`
          : `The post's video lasts ${seconds} s; LinkedIn takes videos of at least 3 seconds. Use a longer script.`,
      ),
    };
  }
  if (stat.size > LINKEDIN_VIDEO_MAX_BYTES || stat.size < LINKEDIN_VIDEO_MIN_BYTES) {
    const tooLarge = stat.size > LINKEDIN_VIDEO_MAX_BYTES;
    return {
      violation: violation(
        "media_size",
        tooLarge ? LINKEDIN_VIDEO_MAX_BYTES : LINKEDIN_VIDEO_MIN_BYTES,
        stat.size,
        tooLarge
          ? `The post's video has ${megabytes(stat.size)}; LinkedIn takes videos of at most 500 MB. Use a shorter video.`
          : `The post's video has ${Math.round(stat.size / 1024)} KB; LinkedIn takes videos of at least 75 KB.`,
      ),
    };
  }
  return {
    file: {
      key,
      size: stat.size,
      title: videoTitle(post.topic),
      thumbnailKey: await thumbnailKeyOf(job?.thumbnailUrl ?? null),
    },
  };
}

/** The rule a post's video breaks on LinkedIn, if any (checked when a publication is created and run). */
export async function linkedinVideoRuleViolation(post: Pick<Post, "brandId" | "videoUrl" | "topic">) {
  const video = await linkedinVideo(post);
  return video && "violation" in video ? video.violation : null;
}

/**
 * A call retried in place while LinkedIn fails transiently or does not answer (uploads are safe to redo),
 * the run's lease extended before each try, so a try and the pause before it stay within the lease.
 */
async function withTries<T>(run: PublishRun, call: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    await run.keepAlive();
    try {
      return await call();
    } catch (error) {
      const retryable =
        error instanceof PlatformError &&
        (error.kind === "transient" || error.kind === "not_sent" || error.kind === "unknown");
      if (!retryable || attempt >= PART_TRIES) throw error;
      await sleep(Math.min(4000, (error.retryAfterSeconds ?? 0) * 1000 || 500 * 2 ** attempt));
    }
  }
}

/** The parts must cover the file from its first byte to its last, in order, each of a sane size. */
function checkParts(parts: LinkedInUploadPart[], size: number) {
  let next = 0;
  for (const part of parts) {
    const ok =
      Number.isSafeInteger(part.firstByte) &&
      Number.isSafeInteger(part.lastByte) &&
      part.firstByte === next &&
      part.lastByte >= part.firstByte &&
      part.lastByte - part.firstByte < MAX_PART_BYTES;
    if (!ok) break;
    next = part.lastByte + 1;
  }
  if (parts.length === 0 || next !== size)
    throw new PlatformError(
      "LinkedIn",
      "transient",
      "LinkedIn's upload instructions do not cover the video.",
    );
}

/**
 * initializeUpload, each part read from the store by its byte range and PUT (a failed PUT is tried again, up
 * to 3 times), finalizeUpload with the ETags in order, then GET /rest/videos/{urn} until AVAILABLE
 * (PROCESSING_FAILED → `rejected` with LinkedIn's reason; still processing after LINKEDIN_VIDEO_WAIT_MS →
 * `transient`). The run's lease is extended after each part and each status read. Answers the video URN.
 */
export async function uploadLinkedInVideo(
  accessToken: string,
  owner: string,
  file: LinkedInVideoFile,
  run: PublishRun,
): Promise<string> {
  const upload = await initializeLinkedInVideoUpload(
    accessToken,
    owner,
    file.size,
    Boolean(file.thumbnailKey),
  );
  checkParts(upload.uploadInstructions, file.size);
  const storage = getMediaStorage();
  const etags: string[] = [];
  for (const part of upload.uploadInstructions) {
    const etag = await withTries(run, async () => {
      const bytes = await buffer(await storage.read(file.key, { start: part.firstByte, end: part.lastByte }));
      if (bytes.length !== part.lastByte - part.firstByte + 1)
        throw new Error(`The video in the media store is shorter than ${part.lastByte + 1} bytes.`);
      return putLinkedInVideoPart(
        accessToken,
        part.uploadUrl,
        new Uint8Array(bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.length),
      );
    });
    etags.push(etag);
  }
  const { thumbnailKey } = file;
  if (thumbnailKey && upload.thumbnailUploadUrl) {
    const thumbnailUrl = upload.thumbnailUploadUrl;
    await withTries(run, async () =>
      putLinkedInVideoThumbnail(accessToken, thumbnailUrl, await buffer(await storage.read(thumbnailKey))),
    );
  }
  await run.keepAlive();
  await finalizeLinkedInVideoUpload(accessToken, upload, etags);

  const deadline = Date.now() + LINKEDIN_VIDEO_WAIT_MS;
  for (let poll = 0; ; poll++) {
    const { status, processingFailureReason } = await withTries(run, () =>
      linkedinVideoStatus(accessToken, upload.video),
    );
    if (status === "AVAILABLE") return upload.video;
    if (status === "PROCESSING_FAILED")
      throw new PlatformError(
        "LinkedIn",
        "rejected",
        `LinkedIn could not process the video: ${processingFailureReason ?? "it gave no reason"}.`,
      );
    if (Date.now() > deadline)
      throw new PlatformError(
        "LinkedIn",
        "transient",
        `LinkedIn was still processing the video after ${LINKEDIN_VIDEO_WAIT_MS / 60_000} minutes.`,
      );
    await sleep(Math.min(4000, 250 * 2 ** poll));
  }
}
