import { createHash } from "node:crypto";
import type { VideoJob } from "@/db/schema";
import type { ErrorCode } from "@/lib/api/error-codes";
import { isTerminalVideoStatus, type VideoJobView } from "@/lib/contracts/video";
import { signedMediaUrl, storedMediaKey } from "@/lib/media/storage";

/** Seconds the client waits between polls while a job is not finished. */
export const POLL_SECONDS = 2;

/**
 * A video_jobs row as the API shows it (DESIGN §5, Video job status). The row keeps media keys; the view
 * carries freshly signed URLs for them, so every status GET hands out a link that works for
 * MEDIA_URL_TTL_SECONDS.
 */
export async function toVideoJobView(job: VideoJob): Promise<VideoJobView> {
  const succeeded = job.status === "succeeded";
  return {
    jobId: job.id,
    brandId: job.brandId,
    postId: job.postId,
    mode: job.mode,
    aspectRatio: job.aspectRatio,
    status: job.status,
    progress: job.progress,
    estimatedSeconds:
      job.status === "succeeded" ? 0 : isTerminalVideoStatus(job.status) ? null : job.estimatedSeconds,
    videoUrl: succeeded ? await signedMediaUrl(storedMediaKey(job.videoUrl)) : null,
    thumbnailUrl: succeeded ? await signedMediaUrl(storedMediaKey(job.thumbnailUrl)) : null,
    durationSeconds: job.status === "succeeded" ? job.durationSeconds : null,
    error:
      job.status === "failed"
        ? {
            code: (job.errorCode ?? "generation_failed") as ErrorCode,
            message: job.errorMessage ?? "The video could not be made.",
            retryable: job.errorRetryable ?? true,
          }
        : null,
    createdAt: job.createdAt.toISOString(),
    startedAt: job.startedAt?.toISOString() ?? null,
    finishedAt: job.finishedAt?.toISOString() ?? null,
    script: job.script,
    brief: job.brief,
    referenceVideoId: job.referenceVideoId,
  };
}

/** A strong ETag over exactly what the client sees, so an unchanged status answers 304. */
export function videoJobETag(view: VideoJobView) {
  return `"${createHash("sha256").update(JSON.stringify(view)).digest("base64url").slice(0, 27)}"`;
}
