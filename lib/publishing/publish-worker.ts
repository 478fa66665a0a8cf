import "server-only";
import type { Job, PgBoss } from "pg-boss";
import { getEnv } from "@/lib/config";
import { log } from "@/lib/log";
import { trackHandler } from "@/lib/queue/boss";
import { countRun, runInSpan } from "@/lib/queue/job-spans";
import type { QueueWorker } from "@/lib/queue/workers";
import { sweepPublications } from "./publication-lease";
import {
  ensurePublishQueue,
  PUBLISH_CHANNEL_CONCURRENCY,
  PUBLISH_QUEUE,
  type PublishJobData,
} from "./publication-queue";
import { runPublication } from "./run-publication";

const globalForSweep = globalThis as unknown as { brandStudioPublishSweep?: NodeJS.Timeout };

/**
 * Runs at once per process: PUBLISH_FETCHERS loops, each taking up to PUBLISH_BATCH due publications per
 * fetch and running them side by side. A run mostly waits (on the platform, on the database), so nine
 * o'clock's thousand due publications go out in parallel, while one fetch serves a batch. At most
 * PUBLISH_CHANNEL_CONCURRENCY of them share a channel: a fetch skips the channels at that count.
 */
const PUBLISH_FETCHERS = 4;
const PUBLISH_BATCH = 4;

/** One run, in a CONSUMER span under the enqueue's (the POST's trace, or the run that rescheduled it). */
function runJob(boss: PgBoss, job: Job<PublishJobData>) {
  return runInSpan(
    PUBLISH_QUEUE,
    job,
    { "brand_studio.publication_id": job.data.publicationId },
    async (span) => {
      try {
        await runPublication(job.data.publicationId, boss);
        countRun(PUBLISH_QUEUE, span, "succeeded");
      } catch (error) {
        // The handler died (the row decides what pg-boss's retry may do).
        countRun(PUBLISH_QUEUE, span, "retried");
        log.error("publication_run_failed", { publicationId: job.data.publicationId, error });
        throw error;
      }
    },
  );
}

/** Publishes due publications, a batch at a time per fetch, and sweeps what dead workers left. */
export const publishWorker: QueueWorker = {
  name: "publish",
  async start(boss) {
    await ensurePublishQueue(boss);
    await boss.work<PublishJobData>(
      PUBLISH_QUEUE,
      {
        localConcurrency: PUBLISH_FETCHERS,
        batchSize: PUBLISH_BATCH,
        perJobResults: true,
        localGroupConcurrency: PUBLISH_CHANNEL_CONCURRENCY,
        pollingIntervalSeconds: 1,
        notifyPollingIntervalSeconds: 1,
      },
      (jobs) =>
        trackHandler(async () => {
          // Each job settles on its own: a run that died is retried by pg-boss, the others complete.
          const outcomes = await Promise.allSettled(jobs.map((job) => runJob(boss, job)));
          return jobs.map((job, index) => {
            const outcome = outcomes[index];
            return outcome.status === "fulfilled"
              ? { id: job.id, status: "completed" as const }
              : { id: job.id, status: "failed" as const, output: { message: String(outcome.reason) } };
          });
        }),
    );
    if (globalForSweep.brandStudioPublishSweep) clearInterval(globalForSweep.brandStudioPublishSweep);
    const sweep = () =>
      sweepPublications(boss).catch((error) => log.error("publication_sweep_failed", { error }));
    void sweep();
    globalForSweep.brandStudioPublishSweep = setInterval(
      sweep,
      getEnv().PUBLISH_SWEEP_INTERVAL_SECONDS * 1000,
    );
    globalForSweep.brandStudioPublishSweep.unref();
  },
};
