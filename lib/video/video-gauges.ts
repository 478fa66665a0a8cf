import { count, eq, min } from "drizzle-orm";
import type client from "prom-client";
import { getDb } from "@/db/client";
import { providerCircuits, videoJobs } from "@/db/schema";
import { getEnv } from "@/lib/config";
import { VIDEO_JOB_STATUSES } from "@/lib/contracts/enums";
import { registerDatabaseGauges } from "@/lib/telemetry/database-gauges";

const HOSTED_PROVIDERS = ["heygen", "did"] as const;
const BREAKER_STATES = ["closed", "half_open", "open"] as const;
type BreakerState = (typeof BREAKER_STATES)[number];

type VideoSnapshot = {
  jobs: Record<string, number>;
  oldestQueuedSeconds: number;
  breakers: Record<string, BreakerState>;
};

async function readVideoSnapshot(): Promise<VideoSnapshot> {
  const db = await getDb();
  const threshold = getEnv().PROVIDER_BREAKER_THRESHOLD;
  const [jobRows, [oldest], circuits] = await Promise.all([
    db.select({ status: videoJobs.status, n: count() }).from(videoJobs).groupBy(videoJobs.status),
    db
      .select({ at: min(videoJobs.createdAt) })
      .from(videoJobs)
      .where(eq(videoJobs.status, "queued")),
    db.select().from(providerCircuits),
  ]);
  const now = Date.now();
  const breakers: VideoSnapshot["breakers"] = {};
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
    jobs: Object.fromEntries(jobRows.map((row) => [row.status, Number(row.n)])),
    oldestQueuedSeconds: oldestAt === null ? 0 : Math.max(0, (now - oldestAt) / 1000),
    breakers,
  };
}

/** The video queue's gauges: jobs by state, the oldest queued job's age, the hosted providers' breakers. */
export function registerVideoGauges(registry: client.Registry) {
  registerDatabaseGauges(
    registry,
    "video",
    readVideoSnapshot,
    { jobs: {}, oldestQueuedSeconds: 0, breakers: {} },
    [
      {
        name: "brand_studio_video_jobs",
        help: "Video jobs in the database by state (read at scrape time).",
        labelNames: ["state"],
        collect(gauge, snapshot) {
          gauge.reset();
          for (const state of VIDEO_JOB_STATUSES) gauge.set({ state }, snapshot.jobs[state] ?? 0);
        },
      },
      {
        name: "brand_studio_video_queue_oldest_age_seconds",
        help: "Age of the oldest video job still queued (0 when none is waiting).",
        collect: (gauge, snapshot) => gauge.set(snapshot.oldestQueuedSeconds),
      },
      {
        name: "brand_studio_provider_breaker_state",
        help: "The hosted providers' circuit breakers: 1 for the state each one is in (closed, half_open, open).",
        labelNames: ["provider", "state"],
        collect(gauge, snapshot) {
          gauge.reset();
          for (const provider of HOSTED_PROVIDERS) {
            const current = snapshot.breakers[provider] ?? "closed";
            for (const state of BREAKER_STATES) gauge.set({ provider, state }, state === current ? 1 : 0);
          }
        },
      },
    ],
  );
}
