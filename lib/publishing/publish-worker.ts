import "server-only";
import { getEnv } from "@/lib/config";
import { log } from "@/lib/log";
import { trackHandler } from "@/lib/queue/boss";
import type { QueueWorker } from "@/lib/queue/workers";
import { metrics } from "@/lib/telemetry/metrics";
import { contextFromCarrier, failSpan, inSpan, SpanKind, setSpanAttributes } from "@/lib/telemetry/tracing";
import { ensurePublishQueue, PUBLISH_QUEUE, type PublishJobData } from "./publication-queue";
import { runPublication, sweepPublications } from "./run-publication";

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
          inSpan(
            `${PUBLISH_QUEUE} run`,
            {
              kind: SpanKind.CONSUMER,
              parent: contextFromCarrier(job.data.trace),
              attributes: {
                "messaging.system": "pg-boss",
                "messaging.destination.name": PUBLISH_QUEUE,
                "messaging.message.id": job.id,
                "brand_studio.publication_id": job.data.publicationId,
              },
            },
            async (span) => {
              try {
                await runPublication(job.data.publicationId, boss);
                metrics().jobRuns.inc({ queue: PUBLISH_QUEUE, outcome: "succeeded" });
                setSpanAttributes(span, { "brand_studio.outcome": "succeeded" });
              } catch (error) {
                // The handler died (the row decides what pg-boss's retry may do).
                metrics().jobRuns.inc({ queue: PUBLISH_QUEUE, outcome: "retried" });
                setSpanAttributes(span, { "brand_studio.outcome": "retried" });
                failSpan(span, "retried");
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
