import "server-only";
import { and, eq, inArray, sql } from "drizzle-orm";
import { getDb, type Tx } from "@/db/client";
import {
  type ChannelConnection,
  channelConnections,
  channelFollowerCounts,
  channelMetricState,
  publicationMetricLatest,
  publicationMetricPulls,
  publicationMetrics,
  publications,
} from "@/db/schema";
import type { MetricName } from "@/lib/contracts/metric-names";
import { log } from "@/lib/log";
import { channelCredentials } from "@/lib/publishing/channels";
import { PlatformError } from "@/lib/publishing/platform-error";
import { metrics } from "@/lib/telemetry/metrics";
import { inSpan, SpanKind, setSpanAttributes } from "@/lib/telemetry/tracing";
import { setChannelMetricState } from "./channel-metric-state";
import { instagramFollowers, pullInstagram } from "./platforms/instagram";
import { linkedinFollowers, pullLinkedIn } from "./platforms/linkedin";
import { drainReactionUpdates, telegramFollowers, telegramPull } from "./platforms/telegram";
import type { PlatformPull, PullTarget } from "./platforms/types";
import { nextPullAt } from "./pull-schedule";

/** The longest a channel waits after a limit when the platform does not say how long. */
const MAX_BACKOFF_MS = 6 * 3_600_000;
const BASE_BACKOFF_MS = 60_000;

export type PullOutcome =
  | "ok"
  | "pending"
  | "deferred"
  | "rate_limited"
  | "reauth_required"
  | "failed"
  | "skipped";

const backoffMs = (failures: number, retryAfterSeconds: number | null) =>
  retryAfterSeconds ? retryAfterSeconds * 1000 : Math.min(BASE_BACKOFF_MS * 2 ** failures, MAX_BACKOFF_MS);

/** Keeps one capture: a history row per metric, and the latest value when it is newer. */
async function saveCapture(
  tx: Tx,
  publication: { id: string; brandId: string },
  values: Partial<Record<MetricName, number>>,
  capturedAt: Date,
) {
  const rows = Object.entries(values)
    .filter(
      (entry): entry is [MetricName, number] => typeof entry[1] === "number" && Number.isFinite(entry[1]),
    )
    .map(([metric, value]) => ({
      publicationId: publication.id,
      metric,
      value: Math.round(value),
      capturedAt,
    }));
  if (!rows.length) return;
  await tx.insert(publicationMetrics).values(rows).onConflictDoNothing();
  await tx
    .insert(publicationMetricLatest)
    .values(rows.map((row) => ({ ...row, brandId: publication.brandId })))
    .onConflictDoUpdate({
      target: [publicationMetricLatest.publicationId, publicationMetricLatest.metric],
      set: { value: sql`excluded.value`, capturedAt: sql`excluded.captured_at` },
      setWhere: sql`${publicationMetricLatest.capturedAt} <= excluded.captured_at`,
    });
}

/**
 * Keeps a capture of reaction totals (by message id, from getUpdates or the webhook) for every published
 * publication of the channel they name, but `except` (a pull saves its own target). Answers how many.
 */
export async function recordReactionCounts(
  tx: Tx,
  channel: Pick<ChannelConnection, "id">,
  totals: Map<string, number>,
  now: Date,
  except?: string,
) {
  const messageIds = [...totals.keys()].filter((id) => id !== except);
  if (!messageIds.length) return 0;
  const rows = await tx
    .select({ id: publications.id, brandId: publications.brandId, externalId: publications.externalId })
    .from(publications)
    .where(
      and(
        eq(publications.channelId, channel.id),
        eq(publications.status, "published"),
        inArray(publications.externalId, messageIds),
      ),
    );
  for (const row of rows) {
    const reactions = totals.get(row.externalId ?? "");
    if (reactions !== undefined) await saveCapture(tx, row, { reactions, interactions: reactions }, now);
  }
  return rows.length;
}

/**
 * Telegram: without a webhook, takes the bot's pending reaction updates and keeps a capture for every
 * publication of the channel they name; with one, the updates arrived already (telegram-webhook.ts). Answers
 * the target's reaction total from this pull's updates, else its latest stored one.
 */
async function pullTelegram(
  channel: ChannelConnection,
  target: PullTarget,
  offset: number | null,
  now: Date,
) {
  const drained = channelCredentials(channel).webhookSecret
    ? { totals: new Map<string, number>(), offset }
    : await drainReactionUpdates(channel, offset);
  const db = await getDb();
  if (drained.totals.size || drained.offset !== offset)
    await db.transaction(async (tx) => {
      await recordReactionCounts(tx, channel, drained.totals, now, target.externalId);
      if (drained.offset !== offset)
        await setChannelMetricState(tx, channel.id, { updateOffset: drained.offset });
    });
  let reactions = drained.totals.get(target.externalId);
  if (reactions === undefined) {
    const [latest] = await db
      .select({ value: publicationMetricLatest.value })
      .from(publicationMetricLatest)
      .where(
        and(
          eq(publicationMetricLatest.publicationId, target.publicationId),
          eq(publicationMetricLatest.metric, "reactions"),
        ),
      );
    reactions = latest?.value;
  }
  return telegramPull(reactions);
}

function pullFrom(channel: ChannelConnection, target: PullTarget, offset: number | null, now: Date) {
  if (channel.channel === "instagram") return pullInstagram(channel, target);
  if (channel.channel === "linkedin") return pullLinkedIn(channel, target);
  return pullTelegram(channel, target, offset, now);
}

async function markReauthRequired(channelId: string, platform: string) {
  const db = await getDb();
  await db
    .update(channelConnections)
    .set({
      status: "needs_reconnect",
      statusMessage: `${platform} refused the stored access: connect this channel again.`,
      updatedAt: new Date(),
    })
    .where(and(eq(channelConnections.id, channelId), eq(channelConnections.status, "active")));
}

/**
 * One pull of a published publication's results (a job of the metrics-pull queue). Keeps a capture per
 * metric given and records why the others are missing; a limit backs the whole channel off; a refused token
 * marks the channel `needs_reconnect` (the API's channel_reauth_required). A failed pull changes no
 * earlier capture. Counted in brand_studio_metric_pulls_total, in an `analytics pull` span.
 */
export async function pullPublicationMetrics(publicationId: string, now = new Date()): Promise<PullOutcome> {
  const db = await getDb();
  const [row] = await db
    .select({
      pull: publicationMetricPulls,
      publication: publications,
      channel: channelConnections,
      state: channelMetricState,
    })
    .from(publicationMetricPulls)
    .innerJoin(publications, eq(publications.id, publicationMetricPulls.publicationId))
    .leftJoin(channelConnections, eq(channelConnections.id, publications.channelId))
    .leftJoin(channelMetricState, eq(channelMetricState.channelId, publications.channelId))
    .where(eq(publicationMetricPulls.publicationId, publicationId));
  if (!row) return "skipped";
  const { pull, publication, channel, state } = row;
  const platform = publication.channel;
  const count = (outcome: PullOutcome) => {
    metrics().metricPulls.inc({ platform, outcome });
    return outcome;
  };
  const updatePull = (patch: Partial<typeof publicationMetricPulls.$inferInsert>) =>
    db
      .update(publicationMetricPulls)
      .set(patch)
      .where(eq(publicationMetricPulls.publicationId, publicationId));

  if (!channel || !publication.externalId) {
    await updatePull({ dueAt: null, errorCode: "not_found", errorMessage: "The channel was disconnected." });
    return count("skipped");
  }
  if (channel.status === "needs_reconnect") {
    await updatePull({
      dueAt: nextPullAt(pull.publishedAt, now),
      errorCode: "channel_reauth_required",
      errorMessage: channel.statusMessage,
    });
    return count("reauth_required");
  }
  if (state?.backoffUntil && state.backoffUntil > now) {
    await updatePull({ dueAt: state.backoffUntil });
    return count("deferred");
  }
  const target: PullTarget = {
    publicationId,
    externalId: publication.externalId,
    placement: publication.placement,
    publishedAt: pull.publishedAt,
  };

  return inSpan(
    "analytics pull",
    {
      kind: SpanKind.INTERNAL,
      attributes: { "brand_studio.platform": platform, "brand_studio.publication_id": publicationId },
    },
    async (span) => {
      let result: PlatformPull;
      try {
        result = await pullFrom(channel, target, state?.updateOffset ?? null, now);
      } catch (error) {
        if (!(error instanceof PlatformError)) throw error;
        const failures = pull.failures + 1;
        const message = error.message.slice(0, 500);
        let outcome: PullOutcome;
        if (error.kind === "unauthorized") {
          await markReauthRequired(channel.id, error.platform);
          await updatePull({
            dueAt: nextPullAt(pull.publishedAt, now),
            errorCode: "channel_reauth_required",
            errorMessage: message,
            failures,
          });
          outcome = "reauth_required";
        } else if (error.kind === "transient" && error.status === 429) {
          const until = new Date(now.getTime() + backoffMs(failures - 1, error.retryAfterSeconds));
          await setChannelMetricState(db, channel.id, { backoffUntil: until });
          await updatePull({ dueAt: until, errorCode: "rate_limited", errorMessage: message, failures });
          outcome = "rate_limited";
        } else {
          // An outage or a refusal: this publication tries again later, no sooner than its next turn for a refusal.
          const retry = new Date(now.getTime() + backoffMs(failures - 1, error.retryAfterSeconds));
          const next = nextPullAt(pull.publishedAt, now);
          await updatePull({
            dueAt: error.kind === "rejected" ? next : next && retry < next ? retry : next,
            errorCode: "provider_unavailable",
            errorMessage: message,
            failures,
          });
          outcome = "failed";
        }
        log.warn("metrics_pull_failed", {
          publicationId,
          platform,
          kind: error.kind,
          status: error.status,
          message,
        });
        setSpanAttributes(span, { "brand_studio.outcome": outcome });
        return count(outcome);
      }
      await db.transaction(async (tx) => {
        await saveCapture(tx, publication, result.values, now);
        await tx
          .update(publicationMetricPulls)
          .set({
            dueAt: nextPullAt(pull.publishedAt, now),
            pulledAt: now,
            missing: result.missing,
            errorCode: null,
            errorMessage: null,
            failures: 0,
          })
          .where(eq(publicationMetricPulls.publicationId, publicationId));
        const patch: Parameters<typeof setChannelMetricState>[2] = {};
        if (result.notice !== undefined) patch.notice = result.notice;
        if (result.slowDownUntil) patch.backoffUntil = result.slowDownUntil;
        if (Object.keys(patch).length) await setChannelMetricState(tx, channel.id, patch);
      });
      const outcome = Object.keys(result.values).length ? "ok" : "pending";
      setSpanAttributes(span, { "brand_studio.outcome": outcome });
      return count(outcome);
    },
  );
}

const utcDay = (at: Date) => at.toISOString().slice(0, 10);

/** Reads a channel's subscriber or follower count for today (UTC); null when the platform gives none. */
export async function pullChannelFollowers(channelId: string, now = new Date()): Promise<PullOutcome> {
  const db = await getDb();
  const [channel] = await db.select().from(channelConnections).where(eq(channelConnections.id, channelId));
  if (channel?.status !== "active") return "skipped";
  const platform = channel.channel;
  return inSpan(
    "analytics followers",
    { kind: SpanKind.INTERNAL, attributes: { "brand_studio.platform": platform } },
    async () => {
      let count: number | null;
      try {
        count =
          channel.channel === "telegram"
            ? await telegramFollowers(channel)
            : channel.channel === "instagram"
              ? await instagramFollowers(channel)
              : await linkedinFollowers(channel);
      } catch (error) {
        if (!(error instanceof PlatformError)) throw error;
        if (error.kind === "unauthorized") await markReauthRequired(channel.id, error.platform);
        if (error.kind === "transient" && error.status === 429)
          await setChannelMetricState(db, channel.id, {
            backoffUntil: new Date(now.getTime() + backoffMs(0, error.retryAfterSeconds)),
          });
        metrics().metricPulls.inc({ platform, outcome: "failed" });
        return "failed";
      }
      await db.transaction(async (tx) => {
        if (count !== null)
          await tx
            .insert(channelFollowerCounts)
            .values({ channelId, brandId: channel.brandId, day: utcDay(now), count, capturedAt: now })
            .onConflictDoUpdate({
              target: [channelFollowerCounts.channelId, channelFollowerCounts.day],
              set: { count, capturedAt: now },
            });
        await setChannelMetricState(tx, channelId, { followersPulledAt: now });
      });
      metrics().metricPulls.inc({ platform, outcome: count === null ? "pending" : "ok" });
      return count === null ? "pending" : "ok";
    },
  );
}
