import "server-only";
import { asc, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { channelConnections } from "@/db/schema";
import type { Principal } from "@/lib/auth/authenticate";
import { requireBrandPermission } from "@/lib/brands/brand-access";
import type { BrandInsightsResponse } from "@/lib/contracts/insights";
import { CHANNELS } from "@/lib/contracts/post-rules";
import { bestTimesFor } from "@/lib/insights/best-times";
import { type RankedPost, rankChannel } from "@/lib/insights/rank-posts";
import { excerptOf } from "@/lib/text/excerpt";

const insightPost = (post: RankedPost) => ({
  postId: post.postId,
  title: excerptOf(post.caption),
  engagementRate: post.engagementRate,
  relative: post.relative,
  reach: post.reach,
  views: post.views,
  interactions: post.interactions,
  publishedAt: post.publishedAt.toISOString(),
  patterns: post.patterns,
});

/** GET /api/brands/{brandId}/insights: per channel, the ranking drafts learn from and the best times. */
export async function getBrandInsights({
  principal,
  brandId,
}: {
  principal: Principal;
  brandId: string;
}): Promise<BrandInsightsResponse> {
  const { brand } = await requireBrandPermission({ principal, brandId, permission: "brand.read" });
  const db = await getDb();
  const connections = await db
    .select({ id: channelConnections.id, channel: channelConnections.channel })
    .from(channelConnections)
    .where(eq(channelConnections.brandId, brand.id))
    .orderBy(asc(channelConnections.createdAt));
  const channels = await Promise.all(
    CHANNELS.map(async (channel) => {
      const [ranking, bestTimes] = await Promise.all([
        rankChannel(brand, channel),
        Promise.all(
          connections
            .filter((connection) => connection.channel === channel)
            .map((connection) => bestTimesFor(brand.id, connection.id)),
        ),
      ]);
      return {
        channel,
        enoughData: ranking.enoughData,
        measure: ranking.measure,
        measuredPosts: ranking.measuredPosts,
        medianEngagementRate: ranking.median,
        top: ranking.top.map(insightPost),
        bottom: ranking.bottom.map(insightPost),
        patterns: ranking.patterns,
        bestTimes,
      };
    }),
  );
  return { brandId: brand.id, timeZone: brand.timeZone, channels };
}
