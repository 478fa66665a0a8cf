import "server-only";
import { and, eq, isNotNull, lte, sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { brands, channelConnections, publicationMetricLatest, publications } from "@/db/schema";
import { BEST_TIMES_MIN_POSTS, type BestTimes } from "@/lib/contracts/best-times";
import { LEARNING_MIN_AGE_HOURS } from "@/lib/contracts/learning";
import type { Channel } from "@/lib/contracts/post-rules";
import { zonedParts } from "@/lib/contracts/time-zone";

const WEEK_HOURS = 7 * 24;
const MAX_TIMES = 5;
/** Smoothing: an hour counts fully, its neighbours (the hour before and after, across midnight) by half. */
const NEIGHBOUR_WEIGHT = 0.5;

/**
 * The times commonly published for each platform (industry studies of engagement by hour, e.g. Sprout Social's
 * and Hootsuite's yearly reports), best first, as weekday (ISO) and hour in the brand's zone. Shown, labelled as
 * `platform_defaults`, while a channel has fewer than BEST_TIMES_MIN_POSTS measured posts.
 */
export const PLATFORM_DEFAULT_TIMES: Record<Channel, Array<[weekday: number, hour: number]>> = {
  linkedin: [
    [3, 9],
    [2, 10],
    [4, 9],
    [3, 12],
    [2, 8],
  ],
  instagram: [
    [2, 11],
    [3, 11],
    [4, 12],
    [5, 10],
    [1, 12],
  ],
  telegram: [
    [2, 9],
    [3, 9],
    [4, 18],
    [1, 12],
    [5, 17],
  ],
};

const isoWeekday = (year: number, month: number, day: number) =>
  ((new Date(Date.UTC(year, month - 1, day)).getUTCDay() + 6) % 7) + 1;

/** The hour of the week (0 = Monday 00:00) an instant falls in, in `timeZone`. */
export function weekHourOf(at: Date, timeZone: string): number {
  const { year, month, day, hour } = zonedParts(at, timeZone);
  return (isoWeekday(year, month, day) - 1) * 24 + hour;
}

/**
 * Best hours from measured posts: each post's engagement rate (interactions ÷ reach) is put in its weekday ×
 * hour; an hour's smoothed rate is the weighted mean over it and its neighbours. Only hours that had a post are
 * offered; score is relative to the best (1).
 */
export function rankHours(posts: Array<{ weekHour: number; rate: number }>): BestTimes["times"] {
  const sum = new Array<number>(WEEK_HOURS).fill(0);
  const count = new Array<number>(WEEK_HOURS).fill(0);
  for (const { weekHour, rate } of posts) {
    sum[weekHour] += rate;
    count[weekHour] += 1;
  }
  const ranked: Array<{ weekHour: number; rate: number; posts: number }> = [];
  for (let h = 0; h < WEEK_HOURS; h++) {
    if (!count[h]) continue;
    let total = sum[h];
    let weight = count[h];
    for (const n of [(h + WEEK_HOURS - 1) % WEEK_HOURS, (h + 1) % WEEK_HOURS]) {
      total += NEIGHBOUR_WEIGHT * sum[n];
      weight += NEIGHBOUR_WEIGHT * count[n];
    }
    ranked.push({ weekHour: h, rate: total / weight, posts: count[h] });
  }
  ranked.sort((a, b) => b.rate - a.rate || b.posts - a.posts || a.weekHour - b.weekHour);
  const best = ranked[0]?.rate ?? 0;
  return ranked.slice(0, MAX_TIMES).map(({ weekHour, rate }) => ({
    weekday: Math.floor(weekHour / 24) + 1,
    hour: weekHour % 24,
    score: best > 0 ? Math.round((rate / best) * 100) / 100 : 0,
  }));
}

/**
 * The best hours to post on a channel, in the brand's time zone: from the channel's own measured posts when it
 * has BEST_TIMES_MIN_POSTS of them, else the platform's commonly published defaults, labelled as such.
 * A measured post: published on this channel over 48 hours ago, with reach > 0 and interactions recorded.
 * The caller has checked the principal may read the brand; a channel of another brand answers defaults with
 * nothing measured.
 */
export async function bestTimesFor(
  brandId: string,
  channelId: string,
  now: Date = new Date(),
): Promise<BestTimes> {
  const db = await getDb();
  const [found] = await db
    .select({ timeZone: brands.timeZone, channel: channelConnections.channel })
    .from(channelConnections)
    .innerJoin(brands, eq(brands.id, channelConnections.brandId))
    .where(and(eq(channelConnections.id, channelId), eq(channelConnections.brandId, brandId)));
  if (!found) return { channelId, source: "platform_defaults", measuredPosts: 0, timeZone: "UTC", times: [] };
  const { timeZone, channel } = found;

  const reach = sql<number>`max(${publicationMetricLatest.value}) FILTER (WHERE ${publicationMetricLatest.metric} = 'reach')`;
  const interactions = sql<number>`max(${publicationMetricLatest.value}) FILTER (WHERE ${publicationMetricLatest.metric} = 'interactions')`;
  const rows = await db
    .select({ publishedAt: publications.publishedAt, reach, interactions })
    .from(publications)
    .innerJoin(publicationMetricLatest, eq(publicationMetricLatest.publicationId, publications.id))
    .where(
      and(
        eq(publications.brandId, brandId),
        eq(publications.channelId, channelId),
        eq(publications.status, "published"),
        isNotNull(publications.publishedAt),
        lte(publications.publishedAt, new Date(now.getTime() - LEARNING_MIN_AGE_HOURS * 3_600_000)),
      ),
    )
    .groupBy(publications.id);
  const measured = rows.flatMap((row) => {
    const r = Number(row.reach);
    const i = row.interactions === null ? null : Number(row.interactions);
    if (!row.publishedAt || !(r > 0) || i === null || Number.isNaN(i)) return [];
    return [{ weekHour: weekHourOf(new Date(row.publishedAt), timeZone), rate: i / r }];
  });

  if (measured.length < BEST_TIMES_MIN_POSTS) {
    const defaults = PLATFORM_DEFAULT_TIMES[channel];
    return {
      channelId,
      source: "platform_defaults",
      measuredPosts: measured.length,
      timeZone,
      times: defaults.map(([weekday, hour], index) => ({
        weekday,
        hour,
        score: Math.round((1 - index * 0.1) * 100) / 100,
      })),
    };
  }
  return { channelId, source: "brand", measuredPosts: measured.length, timeZone, times: rankHours(measured) };
}
