import "server-only";
import { and, asc, eq, isNull, lt, lte, or, sql } from "drizzle-orm";
import type { PgBoss } from "pg-boss";
import { getDb } from "@/db/client";
import { channelConnections, channelMetricState, publicationMetricPulls } from "@/db/schema";
import { log } from "@/lib/log";
import { trackHandler } from "@/lib/queue/boss";
import { countRun, runInSpan, type TracedJob } from "@/lib/queue/job-spans";
import type { QueueWorker } from "@/lib/queue/workers";
import { metrics } from "@/lib/telemetry/metrics";
import { pullChannelFollowers, pullPublicationMetrics } from "./collect-metrics";
import { COLLECT_FOR_MS } from "./pull-schedule";

/** One job per due pull: a publication's results, or a channel's follower count of the day. */
export const METRICS_PULL_QUEUE = "metrics-pull";
/** The cron job (every minute) that queues what is due. */
export const METRICS_SCHEDULE_QUEUE = "metrics-schedule";

export type MetricsPullJob = (
  | { kind: "publication"; publicationId: string }
  | { kind: "followers"; channelId: string }
) &
  TracedJob;

/** At most this many pulls are queued per scheduler run (the rest stay due for the next minute). */
const SCHEDULE_BATCH = 5000;

const globalForMetricsQueue = globalThis as unknown as {
  brandStudioMetricsQueues?: WeakMap<PgBoss, Promise<void>>;
};

/** Creates a queue, or updates its options (a queue's policy is fixed once it exists). */
async function createOrUpdate(
  boss: PgBoss,
  name: string,
  options: { policy: "stately" | "singleton" } & Record<string, unknown>,
) {
  const { policy: _fixed, ...updatable } = options;
  if (await boss.getQueue(name)) await boss.updateQueue(name, updatable);
  else await boss.createQueue(name, options);
}

async function createQueues(boss: PgBoss) {
  // `stately`: at most one queued and one running job per singletonKey, so a pull due again while the last one
  // still waits is not queued twice.
  await createOrUpdate(boss, METRICS_PULL_QUEUE, {
    policy: "stately",
    retryLimit: 2,
    retryDelay: 30,
    expireInSeconds: 300,
  });
  await createOrUpdate(boss, METRICS_SCHEDULE_QUEUE, {
    policy: "singleton",
    retryLimit: 0,
    expireInSeconds: 120,
  });
}

export function ensureMetricsQueues(boss: PgBoss): Promise<void> {
  globalForMetricsQueue.brandStudioMetricsQueues ??= new WeakMap();
  const known = globalForMetricsQueue.brandStudioMetricsQueues;
  let ready = known.get(boss);
  if (!ready) {
    ready = createQueues(boss);
    ready.catch(() => known.delete(boss));
    known.set(boss, ready);
  }
  return ready;
}

export async function enqueueMetricPulls(boss: PgBoss, jobs: MetricsPullJob[]) {
  if (!jobs.length) return 0;
  await ensureMetricsQueues(boss);
  const sent = await boss.insert(
    METRICS_PULL_QUEUE,
    jobs.map((data) => ({
      data,
      singletonKey: data.kind === "publication" ? `pub:${data.publicationId}` : `followers:${data.channelId}`,
    })),
  );
  metrics().enqueued.inc({ queue: METRICS_PULL_QUEUE }, jobs.length);
  return sent?.length ?? jobs.length;
}

/**
 * Queues only what is due: every publication published in the last 90 days gets a pull row (due at once),
 * then each row whose `due_at` has come and whose channel is not backed off is queued; each active channel's
 * follower count once per UTC day.
 */
export async function scheduleMetricPulls(boss: PgBoss, now = new Date()) {
  const db = await getDb();
  const since = new Date(now.getTime() - COLLECT_FOR_MS);
  await db.execute(sql`
    INSERT INTO publication_metric_pulls (publication_id, brand_id, channel_id, published_at, due_at)
    SELECT p.id, p.brand_id, p.channel_id, p.published_at, p.published_at
    FROM publications p
    WHERE p.status = 'published' AND p.published_at > ${since.toISOString()} AND p.external_id IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM publication_metric_pulls m WHERE m.publication_id = p.id)
    ON CONFLICT DO NOTHING`);
  const due = await db
    .select({ publicationId: publicationMetricPulls.publicationId })
    .from(publicationMetricPulls)
    .leftJoin(channelMetricState, eq(channelMetricState.channelId, publicationMetricPulls.channelId))
    .where(
      and(
        lte(publicationMetricPulls.dueAt, now),
        or(isNull(channelMetricState.backoffUntil), lte(channelMetricState.backoffUntil, now)),
      ),
    )
    .orderBy(asc(publicationMetricPulls.dueAt))
    .limit(SCHEDULE_BATCH);
  const today = new Date(`${now.toISOString().slice(0, 10)}T00:00:00Z`);
  const channels = await db
    .select({ channelId: channelConnections.id })
    .from(channelConnections)
    .leftJoin(channelMetricState, eq(channelMetricState.channelId, channelConnections.id))
    .where(
      and(
        eq(channelConnections.status, "active"),
        or(isNull(channelMetricState.followersPulledAt), lt(channelMetricState.followersPulledAt, today)),
        or(isNull(channelMetricState.backoffUntil), lte(channelMetricState.backoffUntil, now)),
      ),
    );
  await enqueueMetricPulls(boss, [
    ...due.map((row) => ({ kind: "publication" as const, publicationId: row.publicationId })),
    ...channels.map((row) => ({ kind: "followers" as const, channelId: row.channelId })),
  ]);
  return { publications: due.length, channels: channels.length };
}

/** Runs one pull job. */
export async function runMetricsPull(data: MetricsPullJob) {
  return data.kind === "publication"
    ? pullPublicationMetrics(data.publicationId)
    : pullChannelFollowers(data.channelId);
}

/** Pulls results as they come due: the every-minute scheduler and the pull jobs. */
export const metricsWorker: QueueWorker = {
  name: "metrics",
  async start(boss) {
    await ensureMetricsQueues(boss);
    await boss.work<MetricsPullJob>(
      METRICS_PULL_QUEUE,
      { localConcurrency: 8, batchSize: 1, pollingIntervalSeconds: 2 },
      ([job]) =>
        trackHandler(() =>
          runInSpan(METRICS_PULL_QUEUE, job, {}, async (span) => {
            try {
              await runMetricsPull(job.data);
              countRun(METRICS_PULL_QUEUE, span, "succeeded");
            } catch (error) {
              countRun(METRICS_PULL_QUEUE, span, "retried");
              log.error("metrics_pull_crashed", { error });
              throw error;
            }
          }),
        ),
    );
    await boss.work(METRICS_SCHEDULE_QUEUE, { pollingIntervalSeconds: 10 }, () =>
      trackHandler(async () => {
        const queued = await scheduleMetricPulls(boss);
        if (queued.publications || queued.channels) log.info("metrics_pulls_queued", queued);
      }),
    );
    await boss.schedule(METRICS_SCHEDULE_QUEUE, "* * * * *");
  },
};
