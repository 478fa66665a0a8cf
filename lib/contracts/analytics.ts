import { z } from "zod";
import { idOf, isoDateTime } from "./common";
import { METRIC_NAMES } from "./metric-names";
import { defineOperation } from "./operation";
import { CHANNELS } from "./post-rules";
import { ROUTES } from "./routes";

/** DESIGN §11: a brand's analytics cover at most a year at a time. */
export const ANALYTICS_MAX_DAYS = 366;
/** An owner's "refresh now" of one post's results, at most once in this many seconds. */
export const REFRESH_INTERVAL_SECONDS = 300;

const metricName = z.enum(METRIC_NAMES);

export const metricValue = z.object({
  name: metricName,
  value: z
    .number()
    .int()
    .nullable()
    .describe(
      "The latest value the platform reported; null when the metric is pending or unavailable (never 0 for those).",
    ),
  state: z
    .enum(["measured", "pending", "unavailable"])
    .describe(
      "`measured`: `value` is the platform's; `pending`: the platform has not reported it yet; `unavailable`: the platform does not give it for this channel (see `reason`).",
    ),
  reason: z.string().nullable().describe("Why the value is missing, for pending and unavailable."),
  capturedAt: isoDateTime.nullable().describe("When `value` was read from the platform."),
});

const seriesPoint = z.object({
  capturedAt: isoDateTime,
  values: z.partialRecord(metricName, z.number().int()).describe("The metrics read at that capture."),
});

export const publicationMetrics = z.object({
  publicationId: idOf("pub"),
  channelId: idOf("chn").nullable(),
  channel: z.enum(CHANNELS),
  accountName: z.string().nullable().describe("The channel's name, null once disconnected."),
  publishedAt: isoDateTime.nullable(),
  permalink: z.string().nullable(),
  pulledAt: isoDateTime.nullable().describe("The last successful pull; null before the first."),
  nextPullAt: isoDateTime
    .nullable()
    .describe(
      "When the results are read next (hourly to 24 h, 6-hourly to day 7, daily to 30, weekly to 90); null after day 90.",
    ),
  error: z
    .object({ code: z.string(), message: z.string().nullable() })
    .nullable()
    .describe(
      "Why the last pull failed (rate_limited, channel_reauth_required, provider_unavailable); earlier values stay.",
    ),
  notice: z
    .string()
    .nullable()
    .describe("Something an owner can do for more results, such as reconnecting to grant insights."),
  engagementRate: z.number().nullable().describe("interactions ÷ reach, when both are measured; else null."),
  metrics: z.array(metricValue).describe("Every metric, in a fixed order."),
  series: z.array(seriesPoint).describe("Every capture, oldest first."),
});

export const postMetricsResponse = z.object({
  postId: idOf("pst"),
  publications: z.array(publicationMetrics).describe("One entry per published publication of the post."),
});

export const postMetricsParams = z.object({ postId: idOf("pst") });

export const refreshPostMetricsResponse = z.object({
  postId: idOf("pst"),
  queued: z
    .number()
    .int()
    .describe("How many of the post's publications will be read again within a minute."),
});

const dateOnly = z.iso.date();

export const brandAnalyticsParams = z.object({ brandId: idOf("brd") });

export const brandAnalyticsQuery = z
  .object({
    from: dateOnly
      .optional()
      .describe("First day (in the brand's time zone), YYYY-MM-DD. Default: 29 days before `to`."),
    to: dateOnly.optional().describe("Last day, inclusive. Default: today in the brand's time zone."),
    channelId: idOf("chn").optional().describe("Only this channel connection's publications."),
    page: z.coerce.number().int().min(1).max(1000).default(1).describe("Page of `topPosts`."),
    pageSize: z.coerce.number().int().min(1).max(100).default(10).describe("Top posts per page."),
    format: z
      .enum(["json", "csv"])
      .default("json")
      .describe("`csv`: the per-post rows as CSV (also with Accept: text/csv)."),
  })
  .superRefine((query, ctx) => {
    if (query.from && query.to) {
      const span = (Date.parse(query.to) - Date.parse(query.from)) / 86_400_000;
      if (span < 0)
        ctx.addIssue({ code: "custom", path: ["to"], message: "Make `to` the same day as `from` or later." });
      else if (span + 1 > ANALYTICS_MAX_DAYS)
        ctx.addIssue({
          code: "custom",
          path: ["to"],
          message: `Ask for at most ${ANALYTICS_MAX_DAYS} days at a time.`,
        });
    }
  });

const totals = z.object({
  posts: z.number().int().describe("Publications published in the period."),
  views: z.number().int().nullable(),
  reach: z.number().int().nullable(),
  interactions: z.number().int().nullable(),
  engagementRate: z
    .number()
    .nullable()
    .describe("Σ interactions ÷ Σ reach over the publications that report both; null when none does."),
});

export const topPost = z.object({
  publicationId: idOf("pub"),
  postId: idOf("pst"),
  channel: z.enum(CHANNELS),
  caption: z.string(),
  thumbnailUrl: z.string().nullable().describe("The post's first image (a signed URL), when it has one."),
  permalink: z.string().nullable(),
  publishedAt: isoDateTime,
  views: z.number().int().nullable(),
  reach: z.number().int().nullable(),
  interactions: z.number().int().nullable(),
  engagementRate: z.number().nullable(),
});

export const brandAnalyticsResponse = z.object({
  brandId: idOf("brd"),
  timeZone: z.string().describe("The brand's IANA time zone: days and the weekday × hour grid are in it."),
  from: dateOnly,
  to: dateOnly,
  totals,
  previous: totals.describe("The same totals for the period of equal length just before."),
  daily: z
    .array(
      z.object({
        day: dateOnly,
        posts: z.number().int(),
        views: z.number().int().nullable(),
        reach: z.number().int().nullable(),
        interactions: z.number().int().nullable(),
        engagementRate: z.number().nullable(),
      }),
    )
    .describe("Per day of publishing, every day of the period (posts 0 on a day without any)."),
  followers: z
    .array(
      z.object({ channelId: idOf("chn"), channel: z.enum(CHANNELS), day: dateOnly, count: z.number().int() }),
    )
    .describe("Subscribers or followers per channel per day, when the platform gives them."),
  heatmap: z
    .array(
      z.object({
        weekday: z.number().int().min(0).max(6).describe("0 = Monday … 6 = Sunday."),
        hour: z.number().int().min(0).max(23),
        posts: z.number().int(),
        engagementRate: z.number().nullable(),
      }),
    )
    .describe(
      "Engagement by the weekday and hour a post was published, in the brand's time zone (slots with posts only).",
    ),
  topPosts: z.object({
    items: z.array(topPost).describe("By interactions, then reach."),
    page: z.number().int(),
    pageSize: z.number().int(),
    total: z.number().int(),
  }),
  missing: z
    .array(
      z.object({
        channel: z.enum(CHANNELS),
        metric: metricName,
        state: z.enum(["pending", "unavailable"]),
        reason: z.string(),
        publications: z.number().int(),
      }),
    )
    .describe("Why some numbers are missing: each reason, and how many publications it applies to."),
});

export const getPostMetrics = defineOperation({
  ...ROUTES.getPostMetrics,
  title: "Get post metrics",
  auth: "bearer",
  permission: "post.read",
  summary:
    "Returns a post's results per published publication: the latest value of each metric (or why it is missing) and every capture over time.",
  pathParams: postMetricsParams,
  responses: { 200: { description: "The post's results per publication.", schema: postMetricsResponse } },
  errors: ["invalid_request"],
});

export const refreshPostMetrics = defineOperation({
  ...ROUTES.refreshPostMetrics,
  title: "Refresh post metrics",
  auth: "bearer",
  permission: "publication.create",
  summary: `Reads a post's results from the platforms again now, instead of at their next turn. Owners only; once per ${REFRESH_INTERVAL_SECONDS / 60} minutes per post.`,
  pathParams: postMetricsParams,
  responses: { 202: { description: "The pulls are queued.", schema: refreshPostMetricsResponse } },
  errors: ["invalid_request", "rate_limited"],
});

export const getBrandAnalytics = defineOperation({
  ...ROUTES.getBrandAnalytics,
  title: "Get brand analytics",
  auth: "bearer",
  permission: "brand.read",
  summary:
    "A brand's results for a period (at most a year) and an optional channel: totals against the previous period, per day, followers, a weekday × hour grid, top posts (paginated) and why some numbers are missing. `format=csv` or `Accept: text/csv` answers the per-post rows as CSV.",
  pathParams: brandAnalyticsParams,
  query: brandAnalyticsQuery,
  responses: {
    200: {
      description: "The brand's analytics (JSON), or the per-post rows (text/csv).",
      schema: brandAnalyticsResponse,
    },
  },
  errors: ["invalid_request"],
});
