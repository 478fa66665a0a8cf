/**
 * The results a publication can have (DESIGN §11), one name per meaning across platforms. A leaf module
 * (no imports), like enums.ts, so db/schema, the contracts and the browser share it.
 * - views: times the post was shown (Instagram `views`, LinkedIn impressions); Telegram's Bot API gives none
 * - reach: distinct accounts that saw it (Instagram `reach`, LinkedIn members reached / unique impressions)
 * - reactions, comments, shares, saves: counts of each interaction
 * - interactions: all of them together (Instagram `total_interactions`, else the sum of the others given)
 */
export const METRIC_NAMES = [
  "views",
  "reach",
  "reactions",
  "comments",
  "shares",
  "saves",
  "interactions",
] as const;
export type MetricName = (typeof METRIC_NAMES)[number];

/**
 * A metric with no value: `unavailable` when the platform does not give it (for this channel or app, with
 * the reason), `pending` when it has not given it yet. Neither is ever shown as 0.
 */
export const METRIC_STATES = ["unavailable", "pending"] as const;
export type MissingMetric = { state: (typeof METRIC_STATES)[number]; reason: string };
export type MissingMetrics = Partial<Record<MetricName, MissingMetric>>;
