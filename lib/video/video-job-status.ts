import { createHash } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { getDb, preparedPerDb } from "@/db/client";
import { brandMembers, videoJobs } from "@/db/schema";
import type { Principal } from "@/lib/auth/authenticate";
import {
  membershipEventsReady,
  membershipGeneration,
  subscribeMembershipChanges,
} from "@/lib/auth/membership-events";
import { isTerminalVideoStatus } from "@/lib/contracts/video";
import { notFound } from "@/lib/errors/api-error";
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
  captions: videoJobs.captions,
  captionsKey: videoJobs.captionsKey,
  voice: videoJobs.voice,
  warnings: videoJobs.warnings,
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

const statusStatement = preparedPerDb((db) =>
  db
    .select(columns)
    .from(videoJobs)
    .innerJoin(
      brandMembers,
      and(eq(brandMembers.brandId, videoJobs.brandId), eq(brandMembers.userId, sql.placeholder("userId"))),
    )
    .where(eq(videoJobs.id, sql.placeholder("jobId")))
    .prepare("video_job_status"),
);

const globalForStatus = globalThis as unknown as {
  brandStudioFinishedJobs?: Map<string, JobStatus>;
};

export type VideoJobStatusRow = VideoJobViewRow & { updatedAt: Date };
type JobStatus = { row: VideoJobStatusRow; etag: string };

/**
 * Finished jobs as their callers last read them, per process. A finished row never changes (every write to
 * video_jobs requires an active status) and jobs are never deleted, so the answer to (user, job) is final
 * once the job is, until the user's membership changes: lib/auth/membership-events.ts drops the user's
 * entries at once on every process, and entries are kept only while this process hears those changes.
 * Bounded: the oldest entry goes first.
 */
const FINISHED_CACHE_SIZE = 10_000;

function finishedJobs() {
  if (!globalForStatus.brandStudioFinishedJobs) {
    const cache = new Map<string, JobStatus>();
    globalForStatus.brandStudioFinishedJobs = cache;
    subscribeMembershipChanges({
      forUser: (userId) => {
        const prefix = `${userId}\u0000`;
        for (const key of cache.keys()) if (key.startsWith(prefix)) cache.delete(key);
      },
      onReset: () => cache.clear(),
    });
  }
  return globalForStatus.brandStudioFinishedJobs;
}

/** The caller's job with its ETag: from the finished-job cache, or one prepared read. */
export async function readVideoJobStatus({
  principal,
  jobId,
}: {
  principal: Principal;
  jobId: string;
}): Promise<JobStatus> {
  const key = `${principal.userId}\u0000${jobId}`;
  const cached = finishedJobs().get(key);
  if (cached) return cached;
  const generation = membershipGeneration();
  const row = await getVideoJobStatusRow({ principal, jobId });
  const job = { row, etag: videoJobRowETag(row) };
  if (isTerminalVideoStatus(row.status) && membershipEventsReady() && generation === membershipGeneration()) {
    const cache = finishedJobs();
    if (cache.size >= FINISHED_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
    cache.set(key, job);
  }
  return job;
}

async function getVideoJobStatusRow({
  principal,
  jobId,
}: {
  principal: Principal;
  jobId: string;
}): Promise<VideoJobStatusRow> {
  const [row] = await statusStatement(await getDb()).execute({ userId: principal.userId, jobId });
  if (!row) throw notFound("Video job");
  return row;
}

/**
 * A strong ETag over the row's visible columns (not over the view), so it is known before any view is
 * built, and stays put while the job does not change even though each 200 signs its media URLs afresh.
 */
function videoJobRowETag(row: VideoJobStatusRow) {
  const hash = createHash("sha256");
  for (const value of Object.values(row)) {
    hash.update(value instanceof Date ? String(value.getTime()) : JSON.stringify(value ?? null));
    hash.update("\u0000");
  }
  return `"${hash.digest("base64url").slice(0, 27)}"`;
}

/** If-None-Match holds one or more ETags (weak or strong), or `*`. */
export function matchesETag(ifNoneMatch: string | null, etag: string) {
  if (!ifNoneMatch) return false;
  return ifNoneMatch
    .split(",")
    .map((tag) => tag.trim().replace(/^W\//, ""))
    .some((tag) => tag === "*" || tag === etag);
}
