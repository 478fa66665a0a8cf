import type { MetricName, MissingMetrics } from "@/lib/contracts/metric-names";

/** What one pull of a publication's results got: the values given, and why the others are missing. */
export type PlatformPull = {
  values: Partial<Record<MetricName, number>>;
  missing: MissingMetrics;
  /** The platform reported that most of its limit is used: pull nothing more for this channel until then. */
  slowDownUntil?: Date;
  /** A permission the channel lacks for part of the results (a notice for its owners), or null when it has them all. */
  notice?: string | null;
};

/** The published publication a pull is for, and its channel. */
export type PullTarget = {
  publicationId: string;
  externalId: string;
  placement: "feed" | "story";
  publishedAt: Date;
};

export const NOT_YET = "The platform has not reported it yet (this can take up to 48 hours).";

/** Every metric in `names` marked the same way. */
export function mark(
  names: readonly MetricName[],
  state: "unavailable" | "pending",
  reason: string,
): MissingMetrics {
  return Object.fromEntries(names.map((name) => [name, { state, reason }]));
}
