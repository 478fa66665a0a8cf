import "server-only";
import { inArray, sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { posts } from "@/db/schema";
import { LEARNING_EXAMPLES, LEARNING_MIN_AGE_HOURS, type PostPatterns } from "@/lib/contracts/learning";
import { LEARNING_MIN_POSTS } from "@/lib/contracts/learning-rules";
import type { Channel } from "@/lib/contracts/post-rules";
import { commonPatterns, postPatterns } from "./post-patterns";

export type Measure = "reach" | "views" | "interactions";

/** One measured post of the channel, with its content and what can be measured of it. */
export type RankedPost = {
  postId: string;
  caption: string;
  hashtags: string[];
  publishedAt: Date;
  reach: number | null;
  views: number | null;
  interactions: number;
  /** Interactions ÷ the measure (the count itself when the measure is `interactions`), 4 decimals. */
  engagementRate: number;
  /** The engagement rate ÷ the channel's median; null when the median is 0. */
  relative: number | null;
  patterns: PostPatterns;
};

export type ChannelRanking = {
  channel: Channel;
  enoughData: boolean;
  measure: Measure | null;
  measuredPosts: number;
  median: number | null;
  /** Best first; empty without enough data. */
  top: RankedPost[];
  /** Weakest first; empty without enough data. */
  bottom: RankedPost[];
  /** What the top posts have in common, and the bottom ones; null without enough data. */
  patterns: { top: PostPatterns; bottom: PostPatterns } | null;
};

type Numbers = {
  postId: string;
  publishedAt: Date;
  reach: number | null;
  views: number | null;
  interactions: number;
};

const CACHE_TTL_MS = 60_000;
/** Past the minute, a ranking read this long ago is still answered while a fresh one is read beside it. */
const STALE_MS = 10 * 60_000;
const MAX_ENTRIES = 2_000;
type Entry = { at: number; value: Promise<ChannelRanking>; ready: boolean; refreshing: boolean };
const globalForRankings = globalThis as unknown as { brandStudioRankings?: Map<string, Entry> };
if (!globalForRankings.brandStudioRankings) globalForRankings.brandStudioRankings = new Map();
const cache = globalForRankings.brandStudioRankings;

const num = (value: unknown) => (value === null || value === undefined ? null : Number(value));
const round = (value: number, places: number) => Math.round(value * 10 ** places) / 10 ** places;

/**
 * Every measured post of the brand on the channel published more than 48 h ago, one row per post (its
 * publications on the channel summed): one query over publications by (brand, published_at) and the latest
 * metric rows by publication.
 */
async function measuredPosts(brandId: string, channel: Channel, now: Date): Promise<Numbers[]> {
  const db = await getDb();
  const cutoff = new Date(now.getTime() - LEARNING_MIN_AGE_HOURS * 3_600_000);
  const result = await db.execute(sql`
    SELECT p.post_id, min(p.published_at) AS published_at,
      sum(l.value) FILTER (WHERE l.metric = 'reach') AS reach,
      sum(l.value) FILTER (WHERE l.metric = 'views') AS views,
      sum(l.value) FILTER (WHERE l.metric = 'interactions') AS interactions
    FROM publications p
    JOIN publication_metric_latest l
      ON l.publication_id = p.id AND l.metric IN ('reach', 'views', 'interactions')
    WHERE p.brand_id = ${brandId} AND p.status = 'published' AND p.channel = ${channel}
      AND p.published_at < ${cutoff.toISOString()}
    GROUP BY p.post_id
    HAVING sum(l.value) FILTER (WHERE l.metric = 'interactions') IS NOT NULL`);
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Record<
    string,
    unknown
  >[];
  return rows.map((row) => ({
    postId: String(row.post_id),
    publishedAt: new Date(row.published_at as string),
    reach: num(row.reach),
    views: num(row.views),
    interactions: Number(row.interactions),
  }));
}

/** Reach where the platform gives it, else views (LinkedIn impressions), else the interactions themselves. */
function chooseMeasure(rows: Numbers[]): { measure: Measure | null; measured: Numbers[] } {
  const options: [Measure, Numbers[]][] = [
    ["reach", rows.filter((row) => (row.reach ?? 0) > 0)],
    ["views", rows.filter((row) => (row.views ?? 0) > 0)],
    ["interactions", rows],
  ];
  const enough = options.find(([, measured]) => measured.length >= LEARNING_MIN_POSTS);
  if (enough) return { measure: enough[0], measured: enough[1] };
  const most = options.reduce((best, option) => (option[1].length > best[1].length ? option : best));
  return { measure: most[1].length ? most[0] : null, measured: most[1] };
}

const rateOf = (row: Numbers, measure: Measure) =>
  measure === "interactions"
    ? row.interactions
    : round(row.interactions / ((measure === "reach" ? row.reach : row.views) ?? 1), 4);

async function rank(
  brand: { id: string; timeZone: string },
  channel: Channel,
  now: Date,
): Promise<ChannelRanking> {
  const { measure, measured } = chooseMeasure(await measuredPosts(brand.id, channel, now));
  const none = { channel, measure, measuredPosts: measured.length, median: null, top: [], bottom: [] };
  if (!measure || measured.length < LEARNING_MIN_POSTS) return { ...none, enoughData: false, patterns: null };

  const rated = measured
    .map((row) => ({ ...row, engagementRate: rateOf(row, measure) }))
    // Best first; ties to the newer post, then the id, so the choice is stable.
    .sort(
      (a, b) =>
        b.engagementRate - a.engagementRate ||
        b.publishedAt.getTime() - a.publishedAt.getTime() ||
        a.postId.localeCompare(b.postId),
    );
  const middle = Math.floor(rated.length / 2);
  const rates = rated.map((row) => row.engagementRate);
  const median = round(rated.length % 2 ? rates[middle] : (rates[middle - 1] + rates[middle]) / 2, 4);
  const top = rated.slice(0, LEARNING_EXAMPLES);
  const bottom = rated.slice(-LEARNING_EXAMPLES).reverse();

  const db = await getDb();
  const contents = await db
    .select({ id: posts.id, caption: posts.caption, hashtags: posts.hashtags, mediaPlan: posts.mediaPlan })
    .from(posts)
    .where(
      inArray(
        posts.id,
        [...top, ...bottom].map((row) => row.postId),
      ),
    );
  const byId = new Map(contents.map((content) => [content.id, content]));
  const full = (row: (typeof rated)[number]): RankedPost => {
    const content = byId.get(row.postId);
    const caption = content?.caption ?? "";
    const hashtags = content?.hashtags ?? [];
    return {
      ...row,
      caption,
      hashtags,
      relative: median > 0 ? round(row.engagementRate / median, 2) : null,
      patterns: postPatterns(
        {
          caption,
          hashtags: hashtags.length,
          mediaType: content?.mediaPlan.format ?? "text_only",
          publishedAt: row.publishedAt,
        },
        brand.timeZone,
      ),
    };
  };
  const topPosts = top.map(full);
  const bottomPosts = bottom.map(full);
  return {
    channel,
    enoughData: true,
    measure,
    measuredPosts: rated.length,
    median,
    top: topPosts,
    bottom: bottomPosts,
    patterns: {
      top: commonPatterns(topPosts.map((post) => post.patterns)),
      bottom: commonPatterns(bottomPosts.map((post) => post.patterns)),
    },
  };
}

/** Reads the ranking and keeps it; a failed read is not kept. */
function remember(key: string, brand: { id: string; timeZone: string }, channel: Channel, now: Date) {
  const entry: Entry = {
    at: now.getTime(),
    value: rank(brand, channel, now),
    ready: false,
    refreshing: false,
  };
  entry.value.then(
    () => {
      entry.ready = true;
      if (cache.size >= MAX_ENTRIES && !cache.has(key)) cache.delete(cache.keys().next().value as string);
      cache.set(key, entry);
    },
    () => {
      if (cache.get(key) === entry) cache.delete(key);
    },
  );
  return entry;
}

/**
 * The brand's published posts on a channel ranked by engagement rate relative to the brand's own median
 * there (issue 41). Kept per brand, channel and time zone for a minute; for ten more minutes the kept one
 * is answered while a fresh one is read beside it, so Generate post waits for the ranking's query only for
 * a brand and channel it has not ranked lately.
 */
export function rankChannel(
  brand: { id: string; timeZone: string },
  channel: Channel,
  now = new Date(),
): Promise<ChannelRanking> {
  const key = `${brand.id}\u0000${channel}\u0000${brand.timeZone}`;
  const hit = cache.get(key);
  const age = hit ? now.getTime() - hit.at : Number.POSITIVE_INFINITY;
  if (hit && age >= 0 && age < CACHE_TTL_MS) return hit.value;
  if (hit?.ready && age >= 0 && age < STALE_MS) {
    if (!hit.refreshing) {
      hit.refreshing = true;
      remember(key, brand, channel, now).value.catch(() => {
        hit.refreshing = false;
      });
    }
    return hit.value;
  }
  const entry = remember(key, brand, channel, now);
  // Concurrent drafts share the read in flight.
  cache.set(key, entry);
  return entry.value;
}

/** Tests and benches: the next ranking reads the database again. */
export function forgetRankings() {
  cache.clear();
}
