import { getDb } from "@/db/client";
import { posts, publicationMetricLatest, publicationMetrics, publications } from "@/db/schema";
import type { Channel } from "@/lib/contracts/post-rules";
import { newId } from "@/lib/ids";

export type MeasuredPost = {
  caption: string;
  hashtags?: string[];
  /** Hours since it was published. */
  ageHours: number;
  reach?: number;
  views?: number;
  interactions: number;
};

/**
 * Published posts of a brand on a channel with their latest results, written as the results collector
 * stores a capture (a publication_metrics row and the publication_metric_latest row per metric).
 * Answers the post ids in the order given.
 */
export async function seedMeasuredPosts(brandId: string, channel: Channel, measured: MeasuredPost[]) {
  const db = await getDb();
  const now = Date.now();
  const ids = measured.map(() => newId("pst"));
  const publicationIds = measured.map(() => newId("pub"));
  await db.insert(posts).values(
    measured.map((post, index) => ({
      id: ids[index],
      groupId: ids[index],
      brandId,
      channel,
      goal: "awareness",
      topic: "A post with results",
      caption: post.caption,
      mediaPlan: { format: "text_only" as const, items: [] },
      hashtags: post.hashtags ?? [],
      status: "published" as const,
      seed: 1,
      provider: "local",
      model: "test",
      latencyMs: 1,
    })),
  );
  await db.insert(publications).values(
    measured.map((post, index) => {
      const publishedAt = new Date(now - post.ageHours * 3_600_000);
      return {
        id: publicationIds[index],
        brandId,
        postId: ids[index],
        channel,
        status: "published" as const,
        publishAt: publishedAt,
        publishedAt,
        externalId: `ext-${publicationIds[index]}`,
      };
    }),
  );
  const capturedAt = new Date(now - 3_600_000);
  const values = measured.flatMap((post, index) =>
    (["reach", "views", "interactions"] as const)
      .filter((metric) => post[metric] !== undefined)
      .map((metric) => ({
        publicationId: publicationIds[index],
        metric,
        value: post[metric] as number,
        capturedAt,
      })),
  );
  for (let start = 0; start < values.length; start += 500) {
    const chunk = values.slice(start, start + 500);
    await db.insert(publicationMetrics).values(chunk);
    await db.insert(publicationMetricLatest).values(chunk.map((value) => ({ ...value, brandId })));
  }
  return ids;
}
