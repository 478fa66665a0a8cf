import type { Post } from "@/db/schema";
import type { PostView } from "@/lib/contracts/posts";
import { signedMediaUrl } from "@/lib/media/storage";

/**
 * A posts row as the API shows it. Media-plan items carry `imageUrl` (the signed URL of their stored
 * image, `imageUrls[i]`), never the storage key; a new draft has no images.
 */
export function toPostView(row: Post, imageUrls: (string | null)[] = []): PostView {
  return {
    postId: row.id,
    brandId: row.brandId,
    channel: row.channel,
    goal: row.goal as PostView["goal"],
    topic: row.topic,
    toneOverride: row.toneOverride,
    assets: row.assets,
    caption: row.caption,
    mediaPlan: {
      format: row.mediaPlan.format,
      items: row.mediaPlan.items.map(({ imageKey: _key, ...item }, index) => ({
        ...item,
        imageUrl: imageUrls[index] ?? null,
      })),
    },
    hashtags: row.hashtags,
    status: row.status,
    videoUrl: row.videoUrl,
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
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The post as the API shows it, with freshly signed URLs of its media-plan images. */
export async function toSignedPostView(row: Post): Promise<PostView> {
  const urls = await Promise.all(row.mediaPlan.items.map((item) => signedMediaUrl(item.imageKey)));
  return toPostView(row, urls);
}
