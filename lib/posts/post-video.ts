import "server-only";
import { and, eq, inArray } from "drizzle-orm";
import { getDb, type Tx } from "@/db/client";
import { type Post, videoJobs } from "@/db/schema";
import type { PostView } from "@/lib/contracts/posts";
import { isSafeKey } from "@/lib/media/media-key";
import { sameOriginMediaUrl, signedMediaUrl, storedMediaKey } from "@/lib/media/storage";

/** The URL's path, decoded; null when it is neither a URL nor a path. */
export function pathOf(url: string) {
  try {
    return decodeURIComponent(new URL(url, "http://relative.invalid").pathname);
  } catch {
    return null;
  }
}

/**
 * The key of the brand's own rendered video a URL points at, or null. Any URL we handed out for it counts,
 * expired or not: the local store's `/media/<key>?exp=…&sig=…` (relative or absolute) and S3's presigned
 * `…/<bucket>/<key>?X-Amz-…`, since only the path is read, and only keys of this brand's finished jobs match.
 */
export async function brandVideoKey(tx: Tx, brandId: string, url: string): Promise<string | null> {
  const path = pathOf(url);
  if (!path) return null;
  const parts = path.split("/").filter(Boolean);
  // Every tail of the path: one of them is the key, whatever the store put in front of it.
  const tails = parts.map((_, index) => parts.slice(index).join("/")).filter(isSafeKey);
  if (tails.length === 0) return null;
  const [job] = await tx
    .select({ videoUrl: videoJobs.videoUrl })
    .from(videoJobs)
    .where(
      and(
        eq(videoJobs.brandId, brandId),
        eq(videoJobs.status, "succeeded"),
        // Jobs written before media URLs were signed hold `/media/<key>`.
        inArray(videoJobs.videoUrl, [...tails, ...tails.map((tail) => `/media/${tail}`)]),
      ),
    )
    .limit(1);
  return storedMediaKey(job?.videoUrl);
}

/** The brand's succeeded job that made this video file (by its media key), or null. */
export async function videoJobOfFile(brandId: string, key: string) {
  const db = await getDb();
  const [job] = await db
    .select({
      jobId: videoJobs.id,
      aspectRatio: videoJobs.aspectRatio,
      durationSeconds: videoJobs.durationSeconds,
      thumbnailUrl: videoJobs.thumbnailUrl,
      captions: videoJobs.captions,
      captionsKey: videoJobs.captionsKey,
    })
    .from(videoJobs)
    .where(
      and(
        eq(videoJobs.brandId, brandId),
        eq(videoJobs.status, "succeeded"),
        inArray(videoJobs.videoUrl, [key, `/media/${key}`]),
      ),
    )
    .limit(1);
  return job ?? null;
}

/** A post's `videoJob` as the API shows it: the job of one of the brand's own videos, its files signed. */
export async function postVideoJob(post: Pick<Post, "brandId" | "videoUrl">): Promise<PostView["videoJob"]> {
  if (!post.videoUrl || !isSafeKey(post.videoUrl)) return null;
  const job = await videoJobOfFile(post.brandId, post.videoUrl);
  if (!job) return null;
  const { captionsKey, thumbnailUrl, ...rest } = job;
  const [thumbnail, captionsUrl] = await Promise.all([
    signedMediaUrl(storedMediaKey(thumbnailUrl)),
    sameOriginMediaUrl(storedMediaKey(captionsKey)),
  ]);
  return { ...rest, thumbnailUrl: thumbnail, captionsUrl };
}
