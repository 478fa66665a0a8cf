import { createHash } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { type Db, getDb } from "@/db/client";
import { brandMembers, videoJobs } from "@/db/schema";
import { notFound } from "@/lib/api/api-error";
import type { Principal } from "@/lib/auth/authenticate";
import type { VideoJobViewRow } from "./video-job-view";

/**
 * The status poll's read (GET /api/video/jobs/{id}), its hot path: one prepared statement per process
 * (built once, not per request) selecting only what the view shows, joined with the caller's membership
 * so anyone else's job answers 404 like a missing one.
 */
const columns = {
  id: videoJobs.id,
  brandId: videoJobs.brandId,
  postId: videoJobs.postId,
  mode: videoJobs.mode,
  aspectRatio: videoJobs.aspectRatio,
  status: videoJobs.status,
  progress: videoJobs.progress,
  estimatedSeconds: videoJobs.estimatedSeconds,
  videoUrl: videoJobs.videoUrl,
  thumbnailUrl: videoJobs.thumbnailUrl,
  durationSeconds: videoJobs.durationSeconds,
  errorCode: videoJobs.errorCode,
  errorMessage: videoJobs.errorMessage,
  errorRetryable: videoJobs.errorRetryable,
  createdAt: videoJobs.createdAt,
  startedAt: videoJobs.startedAt,
  finishedAt: videoJobs.finishedAt,
  updatedAt: videoJobs.updatedAt,
  script: videoJobs.script,
  brief: videoJobs.brief,
  referenceVideoId: videoJobs.referenceVideoId,
};

function prepare(db: Db) {
  return db
    .select(columns)
    .from(videoJobs)
    .innerJoin(
      brandMembers,
      and(eq(brandMembers.brandId, videoJobs.brandId), eq(brandMembers.userId, sql.placeholder("userId"))),
    )
    .where(eq(videoJobs.id, sql.placeholder("jobId")))
    .prepare("video_job_status");
}

const globalForStatus = globalThis as unknown as {
  brandStudioJobStatus?: WeakMap<Db, ReturnType<typeof prepare>>;
};

export type VideoJobStatusRow = VideoJobViewRow & { updatedAt: Date };

export async function getVideoJobStatusRow({
  principal,
  jobId,
}: {
  principal: Principal;
  jobId: string;
}): Promise<VideoJobStatusRow> {
  const db = await getDb();
  globalForStatus.brandStudioJobStatus ??= new WeakMap();
  const statements = globalForStatus.brandStudioJobStatus;
  let statement = statements.get(db);
  if (!statement) {
    statement = prepare(db);
    statements.set(db, statement);
  }
  const [row] = await statement.execute({ userId: principal.userId, jobId });
  if (!row) throw notFound("Video job");
  return row;
}

/**
 * A strong ETag over the row's visible columns (not over the view), so it is known before any view is
 * built, and stays put while the job does not change even though each 200 signs its media URLs afresh.
 */
export function videoJobRowETag(row: VideoJobStatusRow) {
  const hash = createHash("sha256");
  for (const value of Object.values(row)) {
    hash.update(value instanceof Date ? String(value.getTime()) : JSON.stringify(value ?? null));
    hash.update("\u0000");
  }
  return `"${hash.digest("base64url").slice(0, 27)}"`;
}
