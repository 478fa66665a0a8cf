import "server-only";
import { and, asc, eq, inArray, isNull, lt, or, sql } from "drizzle-orm";
import type { z } from "zod";
import { getDb } from "@/db/client";
import {
  channelConnections,
  channelMetricState,
  posts,
  publicationMetricLatest,
  publicationMetricPulls,
  publicationMetrics,
  publications,
} from "@/db/schema";
import type { Principal } from "@/lib/auth/authenticate";
import { requireBrandPermission } from "@/lib/brands/brand-access";
import {
  type postMetricsResponse,
  REFRESH_INTERVAL_SECONDS,
  type refreshPostMetricsResponse,
} from "@/lib/contracts/analytics";
import { METRIC_NAMES, type MetricName, type MissingMetrics } from "@/lib/contracts/metric-names";
import { ApiError, notFound } from "@/lib/errors/api-error";
import { getQueue } from "@/lib/queue/boss";
import { enqueueMetricPulls } from "./metrics-worker";

type Response = z.infer<typeof postMetricsResponse>;

const NOT_PULLED = "Results appear within an hour of publishing.";

/** interactions ÷ reach, when both are measured and reach is above 0. */
export const engagementRate = (interactions: number | null | undefined, reach: number | null | undefined) =>
  typeof interactions === "number" && typeof reach === "number" && reach > 0
    ? Math.round((interactions / reach) * 10_000) / 10_000
    : null;

async function postOf(principal: Principal, postId: string, permission: "post.read" | "publication.create") {
  const db = await getDb();
  const [post] = await db.select({ brandId: posts.brandId }).from(posts).where(eq(posts.id, postId));
  if (!post) throw notFound("Post");
  await requireBrandPermission({ principal, brandId: post.brandId, permission }).catch((error) => {
    // Not a member: the post is as unknown as one that does not exist.
    if (error instanceof ApiError && error.code === "not_found") throw notFound("Post");
    throw error;
  });
  return post;
}

/** A post's results per published publication: latest values (or why missing) and the series. */
export async function getPostMetrics({
  principal,
  postId,
}: {
  principal: Principal;
  postId: string;
}): Promise<Response> {
  await postOf(principal, postId, "post.read");
  const db = await getDb();
  const rows = await db
    .select({
      publication: publications,
      accountName: channelConnections.accountName,
      pull: publicationMetricPulls,
      notice: channelMetricState.notice,
    })
    .from(publications)
    .leftJoin(channelConnections, eq(channelConnections.id, publications.channelId))
    .leftJoin(publicationMetricPulls, eq(publicationMetricPulls.publicationId, publications.id))
    .leftJoin(channelMetricState, eq(channelMetricState.channelId, publications.channelId))
    .where(and(eq(publications.postId, postId), eq(publications.status, "published")))
    .orderBy(asc(publications.publishedAt));
  const ids = rows.map((row) => row.publication.id);
  const [latest, history] = ids.length
    ? await Promise.all([
        db.select().from(publicationMetricLatest).where(inArray(publicationMetricLatest.publicationId, ids)),
        db
          .select()
          .from(publicationMetrics)
          .where(inArray(publicationMetrics.publicationId, ids))
          .orderBy(asc(publicationMetrics.capturedAt)),
      ])
    : [[], []];
  return {
    postId,
    publications: rows.map(({ publication, accountName, pull, notice }) => {
      const mine = new Map(
        latest.filter((row) => row.publicationId === publication.id).map((row) => [row.metric, row]),
      );
      const missing: MissingMetrics = pull?.missing ?? {};
      const metrics = METRIC_NAMES.map((name) => {
        const value = mine.get(name);
        if (value)
          return {
            name,
            value: value.value,
            state: "measured" as const,
            reason: null,
            capturedAt: value.capturedAt.toISOString(),
          };
        const why = missing[name];
        return {
          name,
          value: null,
          state: why?.state ?? ("pending" as const),
          reason: why?.reason ?? NOT_PULLED,
          capturedAt: null,
        };
      });
      const points = new Map<string, Partial<Record<MetricName, number>>>();
      for (const row of history) {
        if (row.publicationId !== publication.id) continue;
        const at = row.capturedAt.toISOString();
        points.set(at, { ...points.get(at), [row.metric]: row.value });
      }
      return {
        publicationId: publication.id,
        channelId: publication.channelId,
        channel: publication.channel,
        accountName,
        publishedAt: publication.publishedAt?.toISOString() ?? null,
        permalink: publication.permalink,
        pulledAt: pull?.pulledAt?.toISOString() ?? null,
        nextPullAt: pull ? (pull.dueAt?.toISOString() ?? null) : null,
        error: pull?.errorCode ? { code: pull.errorCode, message: pull.errorMessage } : null,
        notice: notice ?? null,
        engagementRate: engagementRate(mine.get("interactions")?.value, mine.get("reach")?.value),
        metrics,
        series: [...points].map(([capturedAt, values]) => ({ capturedAt, values })),
      };
    }),
  };
}

/**
 * An owner's "refresh now": every published publication of the post is due at once and queued, unless the
 * post was refreshed in the last REFRESH_INTERVAL_SECONDS (429 rate_limited with Retry-After).
 */
export async function refreshPostMetrics({
  principal,
  postId,
  now = new Date(),
}: {
  principal: Principal;
  postId: string;
  now?: Date;
}): Promise<z.infer<typeof refreshPostMetricsResponse>> {
  const post = await postOf(principal, postId, "publication.create");
  const db = await getDb();
  const since = new Date(now.getTime() - REFRESH_INTERVAL_SECONDS * 1000);
  // Publications published since the scheduler's last run get their pull row here.
  await db.execute(sql`
    INSERT INTO publication_metric_pulls (publication_id, brand_id, channel_id, published_at, due_at)
    SELECT p.id, p.brand_id, p.channel_id, p.published_at, p.published_at FROM publications p
    WHERE p.post_id = ${postId} AND p.status = 'published' AND p.external_id IS NOT NULL
    ON CONFLICT DO NOTHING`);
  const refreshed = await db
    .update(publicationMetricPulls)
    .set({ refreshRequestedAt: now, dueAt: now })
    .where(
      and(
        eq(publicationMetricPulls.brandId, post.brandId),
        inArray(
          publicationMetricPulls.publicationId,
          db.select({ id: publications.id }).from(publications).where(eq(publications.postId, postId)),
        ),
        or(
          isNull(publicationMetricPulls.refreshRequestedAt),
          lt(publicationMetricPulls.refreshRequestedAt, since),
        ),
      ),
    )
    .returning({ publicationId: publicationMetricPulls.publicationId });
  if (!refreshed.length) {
    const [last] = await db
      .select({ at: sql<Date | string>`max(${publicationMetricPulls.refreshRequestedAt})` })
      .from(publicationMetricPulls)
      .innerJoin(publications, eq(publications.id, publicationMetricPulls.publicationId))
      .where(eq(publications.postId, postId));
    if (last?.at) {
      const wait = Math.max(
        1,
        Math.ceil((new Date(last.at).getTime() + REFRESH_INTERVAL_SECONDS * 1000 - now.getTime()) / 1000),
      );
      throw new ApiError(
        "rate_limited",
        `This post's results were refreshed recently; try again in ${wait} s.`,
        {
          headers: { "Retry-After": String(wait) },
          details: { retryAfterSeconds: wait },
        },
      );
    }
    return { postId, queued: 0 };
  }
  await enqueueMetricPulls(
    await getQueue(),
    refreshed.map((row) => ({ kind: "publication" as const, publicationId: row.publicationId })),
  );
  return { postId, queued: refreshed.length };
}
