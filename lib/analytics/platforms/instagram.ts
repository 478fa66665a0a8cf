import "server-only";
import type { ChannelConnection } from "@/db/schema";
import { getEnv } from "@/lib/config";
import type { MetricName } from "@/lib/contracts/metric-names";
import { hostOf, platformCall } from "@/lib/publishing/platform-call";
import { networkFailure, PlatformError } from "@/lib/publishing/platform-error";
import { freshInstagramToken } from "@/lib/publishing/platforms/instagram/adapter";
import { INSTAGRAM_GRAPH_VERSION } from "@/lib/publishing/platforms/instagram/client";
import { mark, NOT_YET, type PlatformPull, type PullTarget } from "./types";

/**
 * Instagram results (Instagram API with Instagram Login): `GET /{media-id}/insights?metric=…` with the
 * metrics Instagram still gives (`impressions`, `plays` and `video_views` are deprecated and never asked
 * for), and the account's `followers_count`. Needs `instagram_business_manage_insights`. An empty `data` is
 * "not yet" (data can lag 48 h), never 0. X-Business-Use-Case-Usage says how much of the rate limit is used.
 */

const PLATFORM = "Instagram";
const FEED_METRICS = "views,reach,likes,comments,shares,saved,total_interactions";
/** Stories have no likes, comments or saves. */
const STORY_METRICS = "views,reach,shares,total_interactions";
/** Past this share of the limit (the highest of calls, CPU and time, in %), pulls wait. */
const SLOW_DOWN_PERCENT = 80;
/** Graph's throttling codes. */
const THROTTLED = new Set([4, 17, 32, 613]);

export const INSIGHTS_NOTICE =
  "Connect this Instagram account again to allow Brand Studio to read post insights (instagram_business_manage_insights).";

const NAMES: Record<string, MetricName> = {
  views: "views",
  reach: "reach",
  likes: "reactions",
  comments: "comments",
  shares: "shares",
  saved: "saves",
  total_interactions: "interactions",
};

type Usage = Record<
  string,
  {
    call_count?: number;
    total_cputime?: number;
    total_time?: number;
    estimated_time_to_regain_access?: number;
  }[]
>;

/** The highest share of the limit used, and the minutes until access returns, from the usage header. */
export function readBusinessUsage(header: string | null): { percent: number; regainMinutes: number } {
  if (!header) return { percent: 0, regainMinutes: 0 };
  try {
    const entries = Object.values(JSON.parse(header) as Usage).flat();
    return {
      percent: Math.max(
        0,
        ...entries.map((e) => Math.max(e.call_count ?? 0, e.total_cputime ?? 0, e.total_time ?? 0)),
      ),
      regainMinutes: Math.max(0, ...entries.map((e) => e.estimated_time_to_regain_access ?? 0)),
    };
  } catch {
    return { percent: 0, regainMinutes: 0 };
  }
}

async function get<T>(
  call: string,
  path: string,
  params: Record<string, string>,
  accessToken: string,
): Promise<{ body: T; usage: { percent: number; regainMinutes: number } }> {
  const base = getEnv().INSTAGRAM_GRAPH_BASE_URL;
  return platformCall(
    "instagram",
    call,
    { "brand_studio.instagram_call": call, "http.request.method": "GET", "server.address": hostOf(base) },
    async () => {
      const url = new URL(`${base}/${INSTAGRAM_GRAPH_VERSION}${path}`);
      for (const [key, value] of Object.entries({ ...params, access_token: accessToken }))
        url.searchParams.set(key, value);
      let response: Response;
      try {
        response = await fetch(url, {
          redirect: "manual",
          signal: AbortSignal.timeout(getEnv().PUBLISH_TIMEOUT_MS),
        });
      } catch (error) {
        throw networkFailure(PLATFORM, error);
      }
      const usage = readBusinessUsage(response.headers.get("x-business-use-case-usage"));
      const body = (await response.json().catch(() => ({}))) as T & {
        error?: { message?: string; code?: number };
      };
      if (response.ok) return { body, usage };
      const code = body.error?.code;
      const message = (body.error?.message ?? `Instagram answered HTTP ${response.status}.`)
        .split(accessToken)
        .join("[token]");
      if (code === 190 || response.status === 401)
        throw new PlatformError(PLATFORM, "unauthorized", message, 401);
      if (response.status === 429 || (code !== undefined && THROTTLED.has(code))) {
        const retryAfter = Number(response.headers.get("retry-after"));
        const wait =
          usage.regainMinutes * 60 || (Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null);
        throw new PlatformError(PLATFORM, "transient", message, 429, wait);
      }
      if (response.status >= 500) throw new PlatformError(PLATFORM, "transient", message, response.status);
      throw new PlatformError(PLATFORM, "rejected", message, code === 10 ? 403 : response.status);
    },
  );
}

const slowDown = (usage: { percent: number; regainMinutes: number }) =>
  usage.percent >= SLOW_DOWN_PERCENT
    ? new Date(Date.now() + Math.max(usage.regainMinutes, 15) * 60_000)
    : undefined;

export async function pullInstagram(channel: ChannelConnection, target: PullTarget): Promise<PlatformPull> {
  const token = await freshInstagramToken(channel);
  const metrics = target.placement === "story" ? STORY_METRICS : FEED_METRICS;
  const asked = metrics.split(",").map((name) => NAMES[name]);
  const notAsked = (
    ["views", "reach", "reactions", "comments", "shares", "saves", "interactions"] as const
  ).filter((name) => !asked.includes(name));
  const unavailable = mark(notAsked, "unavailable", "Instagram does not report this for stories.");
  try {
    const { body, usage } = await get<{ data?: { name: string; values?: { value?: number }[] }[] }>(
      "insights",
      `/${encodeURIComponent(target.externalId)}/insights`,
      { metric: metrics },
      token,
    );
    const values: PlatformPull["values"] = {};
    for (const entry of body.data ?? []) {
      const name = NAMES[entry.name];
      const value = entry.values?.[0]?.value;
      if (name && typeof value === "number") values[name] = value;
    }
    const pending = asked.filter((name) => values[name] === undefined);
    return {
      values,
      missing: { ...unavailable, ...mark(pending, "pending", NOT_YET) },
      slowDownUntil: slowDown(usage),
      notice: null,
    };
  } catch (error) {
    // Error #10: the token lacks instagram_business_manage_insights (connected before it was asked for).
    if (error instanceof PlatformError && error.kind === "rejected" && error.status === 403)
      return {
        values: {},
        missing: { ...unavailable, ...mark(asked, "unavailable", INSIGHTS_NOTICE) },
        notice: INSIGHTS_NOTICE,
      };
    throw error;
  }
}

export async function instagramFollowers(channel: ChannelConnection): Promise<number | null> {
  const token = await freshInstagramToken(channel);
  const { body } = await get<{ followers_count?: number }>(
    "followers",
    "/me",
    { fields: "followers_count" },
    token,
  );
  return typeof body.followers_count === "number" ? body.followers_count : null;
}
