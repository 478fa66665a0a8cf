import { and, eq, inArray } from "drizzle-orm";
import { getDb } from "@/db/client";
import { type VideoJob, videoJobs } from "@/db/schema";
import { recordActivity } from "@/lib/activity/record-activity";
import type { Principal } from "@/lib/auth/authenticate";
import { ApiError } from "@/lib/errors/api-error";
import { log } from "@/lib/log";
import { getQueue } from "@/lib/queue/boss";
import { emitVideoEvent } from "@/lib/video/emit-video-event";
import { getVideoJobForPrincipal } from "./get-video-job";
import { announceCanceled } from "./render-cancel";
import { VIDEO_RENDER_QUEUE } from "./video-queue";

function alreadyFinished(job: VideoJob) {
  return new ApiError(
    "job_not_cancelable",
    `This video job has already ${job.status}; only a queued or running job can be canceled.`,
    { details: { status: job.status } },
  );
}

/**
 * DELETE /api/video/jobs/{jobId}. The row is the source of truth: once it says `canceled`, the worker
 * rendering it is told at once (lib/video/render-cancel.ts; at worst it sees the row within a second) and
 * kills ffmpeg, and a render that finishes anyway is thrown away. Canceling a canceled job answers it again (DELETE is idempotent); a finished one cannot be.
 */
export async function cancelVideoJob({ principal, jobId }: { principal: Principal; jobId: string }) {
  const job = await getVideoJobForPrincipal({ principal, jobId, permission: "video.cancel" });
  if (job.status === "canceled") return job;
  if (job.status !== "queued" && job.status !== "running") throw alreadyFinished(job);

  const db = await getDb();
  const now = new Date();
  const canceled = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(videoJobs)
      .set({ status: "canceled", estimatedSeconds: null, finishedAt: now, updatedAt: now })
      .where(and(eq(videoJobs.id, jobId), inArray(videoJobs.status, ["queued", "running"])))
      .returning();
    if (row) {
      await recordActivity(tx, {
        brandId: row.brandId,
        actorId: principal.userId,
        action: "video.canceled",
        subjectType: "video",
        subjectId: row.id,
        details: { previousStatus: job.status },
      });
    }
    return row;
  });
  if (!canceled) {
    // It finished (or was canceled) between the read and the update.
    const current = await getVideoJobForPrincipal({ principal, jobId, permission: "video.cancel" });
    if (current.status === "canceled") return current;
    throw alreadyFinished(current);
  }
  log.info("video_job_canceled", { jobId, previousStatus: job.status });
  await announceCanceled(jobId);
  await emitVideoEvent(jobId);
  // Takes the job off the queue so it is neither started nor retried; if the queue cannot be reached
  // now, the worker still finds the row canceled and drops the job.
  if (canceled.queueJobId) {
    try {
      await (await getQueue()).cancel(VIDEO_RENDER_QUEUE, canceled.queueJobId);
    } catch (error) {
      log.warn("video_queue_cancel_failed", { jobId, error });
    }
  }
  return canceled;
}
