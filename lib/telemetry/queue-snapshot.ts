import { and, count, eq, gt, min } from "drizzle-orm";
import { getDb } from "@/db/client";
import { providerCircuits, videoJobs, webhookDeliveries } from "@/db/schema";
import { getEnv } from "@/lib/config";

export type QueueSnapshot = {
  ok: boolean;
  jobs: Record<string, number>;
  oldestQueuedSeconds: number;
  breakers: Record<string, "closed" | "half_open" | "open">;
  webhookPending: number;
  webhookRetrying: number;
};

const EMPTY: QueueSnapshot = {
  ok: false,
  jobs: {},
  oldestQueuedSeconds: 0,
  breakers: {},
  webhookPending: 0,
  webhookRetrying: 0,
};

/** One scrape's gauges come from one read: the callbacks of a scrape run within this window. */
const SHARE_MS = 1000;
const globalForSnapshot = globalThis as unknown as {
  brandStudioQueueSnapshot?: { at: number; snapshot: Promise<QueueSnapshot> };
};

async function readFromDatabase(): Promise<QueueSnapshot> {
  const db = await getDb();
  const threshold = getEnv().PROVIDER_BREAKER_THRESHOLD;
  const [jobRows, [oldest], [pending], [retrying], circuits] = await Promise.all([
    db.select({ status: videoJobs.status, n: count() }).from(videoJobs).groupBy(videoJobs.status),
    db
      .select({ at: min(videoJobs.createdAt) })
      .from(videoJobs)
      .where(eq(videoJobs.status, "queued")),
    db.select({ n: count() }).from(webhookDeliveries).where(eq(webhookDeliveries.status, "pending")),
    db
      .select({ n: count() })
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.status, "pending"), gt(webhookDeliveries.attempts, 0))),
    db.select().from(providerCircuits),
  ]);
  const now = Date.now();
  const breakers: QueueSnapshot["breakers"] = {};
  for (const row of circuits) {
    breakers[row.provider] =
      row.failures < threshold
        ? "closed"
        : row.openedUntil && row.openedUntil.getTime() > now
          ? "open"
          : "half_open";
  }
  const oldestAt = oldest?.at ? new Date(oldest.at).getTime() : null;
  return {
    ok: true,
    jobs: Object.fromEntries(jobRows.map((row) => [row.status, Number(row.n)])),
    oldestQueuedSeconds: oldestAt === null ? 0 : Math.max(0, (now - oldestAt) / 1000),
    breakers,
    webhookPending: Number(pending?.n ?? 0),
    webhookRetrying: Number(retrying?.n ?? 0),
  };
}

/**
 * The database-wide gauges (jobs by state, the oldest queued job's age, breakers, webhook backlog), read
 * once per scrape: the gauges' collect() callbacks of one scrape share this read. A database that does not
 * answer gives zeros and `brand_studio_metrics_snapshot_ok 0` rather than a failed scrape.
 */
export function readQueueSnapshot(): Promise<QueueSnapshot> {
  const cached = globalForSnapshot.brandStudioQueueSnapshot;
  if (cached && Date.now() - cached.at < SHARE_MS) return cached.snapshot;
  const snapshot = readFromDatabase().catch(() => EMPTY);
  globalForSnapshot.brandStudioQueueSnapshot = { at: Date.now(), snapshot };
  return snapshot;
}

/** A new scrape starts: its gauges read the database afresh. */
export function forgetQueueSnapshot() {
  globalForSnapshot.brandStudioQueueSnapshot = undefined;
}
