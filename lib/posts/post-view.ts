import type { Post } from "@/db/schema";
import type { PostView } from "@/lib/contracts/posts";
import { signedKeyOrUrl, signedMediaUrl } from "@/lib/media/storage";
import { contentHash } from "./content-hash";
import { postVideoJob } from "./post-video";

type SignedMedia = Pick<PostView, "videoUrl" | "videoJob"> & { imageUrls: (string | null)[] };

/**
 * A posts row as the API shows it, with the signed URLs of its media (`imageUrls[i]` for the media plan's
 * i-th item, and the video), never a storage key. A new draft has neither, hence the default.
 */
export function toPostView(
  row: Post,
  { imageUrls, videoUrl, videoJob }: SignedMedia = { imageUrls: [], videoUrl: null, videoJob: null },
): PostView {
  return {
    postId: row.id,
    brandId: row.brandId,
    channel: row.channel,
    goal: row.goal as PostView["goal"],
    topic: row.topic,
    toneOverride: row.toneOverride,
    language: row.language,
    groupId: row.groupId,
    assets: row.assets,
    caption: row.caption,
    mediaPlan: {
      format: row.mediaPlan.format,
      items: row.mediaPlan.items.map(({ imageKey: _key, imageJob, ...item }, index) => ({
        ...item,
        imageUrl: imageUrls[index] ?? null,
        imageJob: imageJob
          ? { state: imageJob.state, ...(imageJob.error ? { error: imageJob.error } : {}) }
          : null,
      })),
    },
    hashtags: row.hashtags,
    status: row.status,
    version: contentHash(row),
    approvedVersion: row.approvedHash,
    videoUrl,
    videoJob,
    review:
      row.reviewAction && row.reviewedAt
        ? {
            action: row.reviewAction,
            by: row.reviewedBy,
            at: row.reviewedAt.toISOString(),
            comment: row.reviewComment,
          }
        : null,
    generation: {
      provider: row.provider,
      model: row.model,
      seed: row.seed,
      latencyMs: row.latencyMs,
      inputTokens: row.inputTokens,
      outputTokens: row.outputTokens,
    },
    learnedFrom: row.learnedFrom ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The post as the API shows it, with freshly signed URLs of its media-plan images, its video and that video's job's files. */
export async function toSignedPostView(row: Post): Promise<PostView> {
  const [imageUrls, videoUrl, videoJob] = await Promise.all([
    Promise.all(row.mediaPlan.items.map((item) => signedMediaUrl(item.imageKey))),
    signedKeyOrUrl(row.videoUrl),
    postVideoJob(row),
  ]);
  return toPostView(row, { imageUrls, videoUrl, videoJob });
}
