import "server-only";
import { getEnv } from "@/lib/config";
import { log } from "@/lib/log";
import { trackHandler } from "@/lib/queue/boss";
import { countRun, runInSpan } from "@/lib/queue/job-spans";
import type { QueueWorker } from "@/lib/queue/workers";
import { sweepPublications } from "./publication-lease";
import { ensurePublishQueue, PUBLISH_QUEUE, type PublishJobData } from "./publication-queue";
import { runPublication } from "./run-publication";

const globalForSweep = globalThis as unknown as { brandStudioPublishSweep?: NodeJS.Timeout };

/** Publishes due publications, a few at a time per process, and sweeps what dead workers left. */
export const publishWorker: QueueWorker = {
  name: "publish",
  async start(boss) {
    await ensurePublishQueue(boss);
    await boss.work<PublishJobData>(
      PUBLISH_QUEUE,
      { localConcurrency: 4, batchSize: 1, pollingIntervalSeconds: 1, notifyPollingIntervalSeconds: 1 },
      ([job]) =>
        trackHandler(() =>
          // A CONSUMER span under the enqueue's (the POST's trace, or the run that rescheduled it).
          runInSpan(
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
          ),
        ),
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
