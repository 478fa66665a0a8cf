import "server-only";
import { and, asc, eq, gte, lte, sql } from "drizzle-orm";
import type { z } from "zod";
import { getDb } from "@/db/client";
import { channelConnections, channelFollowerCounts, publicationMetricPulls } from "@/db/schema";
import type { Principal } from "@/lib/auth/authenticate";
import { requireBrandPermission } from "@/lib/brands/brand-access";
import type { brandAnalyticsQuery, brandAnalyticsResponse } from "@/lib/contracts/analytics";
import type { MetricName } from "@/lib/contracts/metric-names";
import { zonedDayKey, zonedParts, zonedToUtc } from "@/lib/contracts/time-zone";
import { signedMediaUrl } from "@/lib/media/storage";
import { engagementRate } from "./post-metrics";

type Query = z.infer<typeof brandAnalyticsQuery>;
type Analytics = z.infer<typeof brandAnalyticsResponse>;
type Totals = Analytics["totals"];

const DAY_MS = 86_400_000;

/** One published publication in the period with its latest views, reach and interactions (null: none). */
type Row = {
  publicationId: string;
  postId: string;
  channel: "telegram" | "instagram" | "linkedin";
  publishedAt: Date;
  permalink: string | null;
  caption: string;
  imageKey: string | null;
  views: number | null;
  reach: number | null;
  interactions: number | null;
};

const addDays = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
const startOf = (day: string, timeZone: string) => {
  const [year, month, date] = day.split("-").map(Number);
  return zonedToUtc({ year, month, day: date, hour: 0, minute: 0 }, timeZone);
};
const num = (value: unknown) => (value === null || value === undefined ? null : Number(value));

/** Sums of a metric over the rows that report it; null when none does. */
function totalsOf(rows: Row[]): Totals {
  const sum = (metric: "views" | "reach" | "interactions") => {
    const given = rows.filter((row) => row[metric] !== null);
    return given.length ? given.reduce((total, row) => total + (row[metric] ?? 0), 0) : null;
  };
  const both = rows.filter((row) => row.reach !== null && row.interactions !== null);
  return {
    posts: rows.length,
    views: sum("views"),
    reach: sum("reach"),
    interactions: sum("interactions"),
    engagementRate: both.length
      ? engagementRate(
          both.reduce((total, row) => total + (row.interactions ?? 0), 0),
          both.reduce((total, row) => total + (row.reach ?? 0), 0),
        )
      : null,
  };
}

/** The period asked for, in the brand's days: `to` defaults to today, `from` to 29 days before it. */
export function analyticsPeriod(query: Pick<Query, "from" | "to">, timeZone: string, now = new Date()) {
  const to = query.to ?? zonedDayKey(now, timeZone);
  const from = query.from ?? addDays(to, -29);
  const days = Math.round((Date.parse(to) - Date.parse(from)) / DAY_MS) + 1;
  return { from, to, days, previousFrom: addDays(from, -days) };
}

/**
 * A brand's published publications in [start, end) with their latest views, reach and interactions: the
 * publications through `publications_brand_published_at_idx`, each one's post and latest values by primary
 * key (LATERAL lookups, so the cost follows the brand's publications, not the tables' size).
 */
export function brandRowsQuery(brandId: string, start: Date, end: Date, channelId?: string) {
  return sql`
    SELECT p.id AS publication_id, p.post_id, p.channel, p.published_at, p.permalink, po.caption,
      po.image_key, l.views, l.reach, l.interactions
    FROM publications p
    CROSS JOIN LATERAL (
      SELECT caption, media_plan -> 'items' -> 0 ->> 'imageKey' AS image_key FROM posts WHERE id = p.post_id
    ) po
    CROSS JOIN LATERAL (
      SELECT max(m.value) FILTER (WHERE m.metric = 'views') AS views,
        max(m.value) FILTER (WHERE m.metric = 'reach') AS reach,
        max(m.value) FILTER (WHERE m.metric = 'interactions') AS interactions
      FROM publication_metric_latest m
      WHERE m.publication_id = p.id AND m.metric IN ('views', 'reach', 'interactions')
    ) l
    WHERE p.brand_id = ${brandId} AND p.status = 'published'
      AND p.published_at >= ${start.toISOString()} AND p.published_at < ${end.toISOString()}
      ${channelId ? sql`AND p.channel_id = ${channelId}` : sql``}
    ORDER BY p.published_at`;
}

async function loadRows(brandId: string, start: Date, end: Date, channelId?: string): Promise<Row[]> {
  const db = await getDb();
  const result = await db.execute(brandRowsQuery(brandId, start, end, channelId));
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Record<
    string,
    unknown
  >[];
  return rows.map((row) => ({
    publicationId: String(row.publication_id),
    postId: String(row.post_id),
    channel: row.channel as Row["channel"],
    publishedAt: new Date(row.published_at as string),
    permalink: (row.permalink as string | null) ?? null,
    caption: String(row.caption ?? ""),
    imageKey: (row.image_key as string | null) ?? null,
    views: num(row.views),
    reach: num(row.reach),
    interactions: num(row.interactions),
  }));
}

/** Everything the brand analytics page and its CSV show, for the brand's period and channel filter. */
export async function brandAnalyticsRows({
  principal,
  brandId,
  query,
  now = new Date(),
}: {
  principal: Principal;
  brandId: string;
  query: Query;
  now?: Date;
}) {
  const { brand } = await requireBrandPermission({ principal, brandId, permission: "brand.read" });
  const timeZone = brand.timeZone;
  const period = analyticsPeriod(query, timeZone, now);
  const start = startOf(period.from, timeZone);
  const end = startOf(addDays(period.to, 1), timeZone);
  const all = await loadRows(brandId, startOf(period.previousFrom, timeZone), end, query.channelId);
  return {
    timeZone,
    period,
    current: all.filter((row) => row.publishedAt >= start),
    previous: all.filter((row) => row.publishedAt < start),
  };
}

export async function getBrandAnalytics(args: {
  principal: Principal;
  brandId: string;
  query: Query;
  now?: Date;
}): Promise<Analytics> {
  const { brandId, query } = args;
  const { timeZone, period, current, previous } = await brandAnalyticsRows(args);
  const db = await getDb();

  const byDay = new Map<string, Row[]>();
  for (const row of current) {
    const day = zonedDayKey(row.publishedAt, timeZone);
    byDay.set(day, [...(byDay.get(day) ?? []), row]);
  }
  const daily: Analytics["daily"] = [];
  for (let day = period.from; day <= period.to; day = addDays(day, 1)) {
    const { engagementRate: rate, ...totals } = totalsOf(byDay.get(day) ?? []);
    daily.push({ day, ...totals, engagementRate: rate });
  }

  const slots = new Map<string, Row[]>();
  for (const row of current) {
    const parts = zonedParts(row.publishedAt, timeZone);
    const weekday = (new Date(Date.UTC(parts.year, parts.month - 1, parts.day)).getUTCDay() + 6) % 7;
    const key = `${weekday}:${parts.hour}`;
    slots.set(key, [...(slots.get(key) ?? []), row]);
  }
  const heatmap = [...slots].map(([key, rows]) => {
    const [weekday, hour] = key.split(":").map(Number);
    return { weekday, hour, posts: rows.length, engagementRate: totalsOf(rows).engagementRate };
  });
  heatmap.sort((a, b) => a.weekday - b.weekday || a.hour - b.hour);

  const ranked = [...current].sort(
    (a, b) =>
      (b.interactions ?? -1) - (a.interactions ?? -1) ||
      (b.reach ?? -1) - (a.reach ?? -1) ||
      b.publishedAt.getTime() - a.publishedAt.getTime(),
  );
  const pageRows = ranked.slice((query.page - 1) * query.pageSize, query.page * query.pageSize);
  const items = await Promise.all(
    pageRows.map(async (row) => ({
      publicationId: row.publicationId,
      postId: row.postId,
      channel: row.channel,
      caption: row.caption,
      thumbnailUrl: await signedMediaUrl(row.imageKey),
      permalink: row.permalink,
      publishedAt: row.publishedAt.toISOString(),
      views: row.views,
      reach: row.reach,
      interactions: row.interactions,
      engagementRate: engagementRate(row.interactions, row.reach),
    })),
  );

  const followerRows = await db
    .select({
      channelId: channelFollowerCounts.channelId,
      channel: channelConnections.channel,
      day: channelFollowerCounts.day,
      count: channelFollowerCounts.count,
    })
    .from(channelFollowerCounts)
    .innerJoin(channelConnections, eq(channelConnections.id, channelFollowerCounts.channelId))
    .where(
      and(
        eq(channelFollowerCounts.brandId, brandId),
        gte(channelFollowerCounts.day, period.from),
        lte(channelFollowerCounts.day, period.to),
        ...(query.channelId ? [eq(channelFollowerCounts.channelId, query.channelId)] : []),
      ),
    )
    .orderBy(asc(channelFollowerCounts.day));

  // The period's pull rows through (brand_id, published_at), not a list of every publication id.
  const missingRows = current.length
    ? await db
        .select({
          publicationId: publicationMetricPulls.publicationId,
          missing: publicationMetricPulls.missing,
        })
        .from(publicationMetricPulls)
        .where(
          and(
            eq(publicationMetricPulls.brandId, brandId),
            gte(publicationMetricPulls.publishedAt, current[0].publishedAt),
            lte(publicationMetricPulls.publishedAt, current[current.length - 1].publishedAt),
          ),
        )
    : [];
  const channelOf = new Map(current.map((row) => [row.publicationId, row.channel]));
  const reasons = new Map<string, Analytics["missing"][number]>();
  for (const { publicationId, missing } of missingRows) {
    const channel = channelOf.get(publicationId);
    if (!channel) continue;
    for (const [metric, why] of Object.entries(missing)) {
      if (!why) continue;
      const key = `${channel}|${metric}|${why.state}|${why.reason}`;
      const seen = reasons.get(key);
      if (seen) seen.publications++;
      else
        reasons.set(key, {
          channel,
          metric: metric as MetricName,
          state: why.state,
          reason: why.reason,
          publications: 1,
        });
    }
  }

  return {
    brandId,
    timeZone,
    from: period.from,
    to: period.to,
    totals: totalsOf(current),
    previous: totalsOf(previous),
    daily,
    followers: followerRows,
    heatmap,
    topPosts: { items, page: query.page, pageSize: query.pageSize, total: current.length },
    missing: [...reasons.values()],
  };
}

/** A cell a spreadsheet shows as text: quoted, and never read as a formula. */
function cell(value: string | number | null) {
  if (value === null) return "";
  if (typeof value === "number") return String(value);
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/**
 * The period's publications as CSV (RFC 4180, CRLF, a UTF-8 BOM so a spreadsheet opens it as it is): an
 * empty cell is a metric the platform did not give, never 0.
 */
export async function brandAnalyticsCsv(args: {
  principal: Principal;
  brandId: string;
  query: Query;
  now?: Date;
}) {
  const { timeZone, period, current } = await brandAnalyticsRows(args);
  const header = [
    "published_at",
    "time_zone",
    "channel",
    "post_id",
    "caption",
    "permalink",
    "views",
    "reach",
    "interactions",
    "engagement_rate",
  ];
  const lines = current.map((row) => {
    const parts = zonedParts(row.publishedAt, timeZone);
    const local = `${zonedDayKey(row.publishedAt, timeZone)} ${String(parts.hour).padStart(2, "0")}:${String(parts.minute).padStart(2, "0")}`;
    return [
      local,
      timeZone,
      row.channel,
      row.postId,
      row.caption,
      row.permalink,
      row.views,
      row.reach,
      row.interactions,
      engagementRate(row.interactions, row.reach),
    ]
      .map(cell)
      .join(",");
  });
  return {
    filename: `analytics-${args.brandId}-${period.from}-to-${period.to}.csv`,
    body: `\uFEFF${[header.join(","), ...lines].join("\r\n")}\r\n`,
  };
}
