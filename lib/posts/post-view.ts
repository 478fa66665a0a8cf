import type { Post } from "@/db/schema";
import type { PostView } from "@/lib/contracts/posts";

/** A posts row as the API shows it. */
export function toPostView(row: Post): PostView {
  return {
    postId: row.id,
    brandId: row.brandId,
    channel: row.channel,
    goal: row.goal as PostView["goal"],
    topic: row.topic,
    toneOverride: row.toneOverride,
    assets: row.assets,
    caption: row.caption,
    mediaPlan: row.mediaPlan,
    hashtags: row.hashtags,
    status: row.status,
    videoUrl: row.videoUrl,
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
