import { and, eq, inArray, lt, sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { brands, posts, videoJobs } from "@/db/schema";
import type { ErrorCode } from "@/lib/errors/error-codes";
import { getMediaStorage } from "@/lib/media/storage";
import { wholeSeconds } from "./local/file-duration";
import { type RenderResult, videoMediaPrefix } from "./provider";

/**
 * The worker's writes to video_jobs. Each attempt of a job carries its number; a write from an attempt
 * that is no longer the job's latest (its worker was presumed dead and the job retried) changes nothing,
 * so a job's result is written exactly once even if an old attempt wakes up.
 */

const ACTIVE = ["queued", "running"] as const;

/** Marks the job running under this attempt, with the brand it renders for; null if it must not run. */
export async function claimVideoJob({ videoJobId, attempt }: { videoJobId: string; attempt: number }) {
  const db = await getDb();
  const now = new Date();
  const [job] = await db
    .update(videoJobs)
    .set({
      status: "running",
      attempts: attempt,
      // The app's clock, like createdAt, so startedAt never reads earlier than createdAt.
      startedAt: sql`coalesce(${videoJobs.startedAt}, ${now.toISOString()}::timestamptz)`,
      updatedAt: now,
    })
    .where(
      and(eq(videoJobs.id, videoJobId), inArray(videoJobs.status, ACTIVE), lt(videoJobs.attempts, attempt)),
    )
    .returning();
  if (!job) return null;
  const [brand] = await db.select().from(brands).where(eq(brands.id, job.brandId));
  if (!brand) return null;
  // The source post gives the scenes their images and the end card its call to action.
  const [post] = job.postId ? await db.select().from(posts).where(eq(posts.id, job.postId)) : [];
  return { job, brand, post: post ?? null };
}

/**
 * Records progress (never lower than before) and the seconds left. False when this attempt no longer
 * owns a running job: it was canceled, or retried elsewhere.
 */
export async function recordVideoProgress({
  videoJobId,
  attempt,
  progress,
  estimatedSeconds,
}: {
  videoJobId: string;
  attempt: number;
  progress: number;
  estimatedSeconds: number;
}) {
  const db = await getDb();
  const rows = await db
    .update(videoJobs)
    .set({
      progress: sql`greatest(${videoJobs.progress}, ${progress})`,
      estimatedSeconds,
      updatedAt: new Date(),
    })
    .where(
      and(eq(videoJobs.id, videoJobId), eq(videoJobs.attempts, attempt), eq(videoJobs.status, "running")),
    )
    .returning({ id: videoJobs.id });
  return rows.length > 0;
}

/** Stores the finished video on the job. False when the job was canceled (or retried) meanwhile. */
export async function completeVideoJob({
  videoJobId,
  attempt,
  result,
}: {
  videoJobId: string;
  attempt: number;
  result: RenderResult;
}) {
  const db = await getDb();
  const now = new Date();
  const rows = await db
    .update(videoJobs)
    .set({
      status: "succeeded",
      progress: 100,
      estimatedSeconds: 0,
      // The columns keep media keys; responses sign a fresh URL for them (toVideoJobView).
      videoUrl: result.videoKey,
      thumbnailUrl: result.posterKey,
      durationSeconds: wholeSeconds(result.durationSeconds),
      captionsKey: result.captionsKey ?? null,
      voice: result.voice ?? null,
      warnings: result.warnings ?? [],
      finishedAt: now,
      updatedAt: now,
    })
    .where(
      and(eq(videoJobs.id, videoJobId), eq(videoJobs.attempts, attempt), eq(videoJobs.status, "running")),
    )
    .returning({ id: videoJobs.id });
  return rows.length > 0;
}

/** Ends a queued or running job as failed, and removes whatever files it left. */
export async function failVideoJob({
  videoJobId,
  code,
  message,
  retryable,
}: {
  videoJobId: string;
  code: ErrorCode;
  message: string;
  retryable: boolean;
}) {
  const db = await getDb();
  const now = new Date();
  const rows = await db
    .update(videoJobs)
    .set({
      status: "failed",
      errorCode: code,
      errorMessage: message,
      errorRetryable: retryable,
      estimatedSeconds: null,
      finishedAt: now,
      updatedAt: now,
    })
    .where(and(eq(videoJobs.id, videoJobId), inArray(videoJobs.status, ACTIVE)))
    .returning({ id: videoJobs.id });
  if (rows.length > 0) await removeVideoFiles(videoJobId);
  return rows.length > 0;
}

export async function removeVideoFiles(videoJobId: string) {
  await getMediaStorage().remove(videoMediaPrefix(videoJobId));
}
