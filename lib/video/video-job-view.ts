import type { VideoJob } from "@/db/schema";
import type { ErrorCode } from "@/lib/api/error-codes";
import { isTerminalVideoStatus, type VideoJobView } from "@/lib/contracts/video";

/** Seconds the client waits between polls while a job is not finished. */
export const POLL_SECONDS = 2;

/** The columns of a video_jobs row that the view shows. */
export type VideoJobViewRow = Pick<
  VideoJob,
  | "id"
  | "brandId"
  | "postId"
  | "mode"
  | "status"
  | "progress"
  | "estimatedSeconds"
  | "videoUrl"
  | "thumbnailUrl"
  | "durationSeconds"
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

/** A video_jobs row as the API shows it (DESIGN §5, Video job status). */
export function toVideoJobView(job: VideoJobViewRow): VideoJobView {
  return {
    jobId: job.id,
    brandId: job.brandId,
    postId: job.postId,
    mode: job.mode,
    status: job.status,
    progress: job.progress,
    estimatedSeconds:
      job.status === "succeeded" ? 0 : isTerminalVideoStatus(job.status) ? null : job.estimatedSeconds,
    videoUrl: job.status === "succeeded" ? job.videoUrl : null,
    thumbnailUrl: job.status === "succeeded" ? job.thumbnailUrl : null,
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
