import type { VideoJob } from "@/db/schema";
import { isTerminalVideoStatus, type VideoJobView } from "@/lib/contracts/video";
import type { ErrorCode } from "@/lib/errors/error-codes";
import { sameOriginMediaUrl, signedMediaUrl, storedMediaKey } from "@/lib/media/storage";

/** Seconds the client waits between polls while a job is not finished. */
export const POLL_SECONDS = 2;

/** The columns of a video_jobs row that the view shows. */
export type VideoJobViewRow = Pick<
  VideoJob,
  | "id"
  | "brandId"
  | "postId"
  | "mode"
  | "aspectRatio"
  | "status"
  | "progress"
  | "estimatedSeconds"
  | "videoUrl"
  | "thumbnailUrl"
  | "durationSeconds"
  | "captions"
  | "captionsKey"
  | "voice"
  | "warnings"
  | "errorCode"
  | "errorMessage"
  | "errorRetryable"
  | "createdAt"
  | "startedAt"
  | "finishedAt"
  | "script"
  | "brief"
  | "referenceVideoId"
>;

/**
 * A video_jobs row as the API shows it (DESIGN §5, Video job status). The row keeps media keys; the view
 * carries freshly signed URLs for them, so every status GET hands out a link that works for
 * MEDIA_URL_TTL_SECONDS.
 */
export async function toVideoJobView(job: VideoJobViewRow): Promise<VideoJobView> {
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
    captions: job.captions,
    captionsUrl: succeeded ? await sameOriginMediaUrl(storedMediaKey(job.captionsKey)) : null,
    voice: succeeded ? job.voice : null,
    warnings: succeeded ? job.warnings : [],
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
