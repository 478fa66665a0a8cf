import "server-only";
import type { Job, PgBoss } from "pg-boss";
import { getEnv } from "@/lib/config";
import { log } from "@/lib/log";
import { onQueueStopping, trackHandler } from "@/lib/queue/boss";
import { countRun, runInSpan } from "@/lib/queue/job-spans";
import type { QueueWorker } from "@/lib/queue/workers";
import { channelWaitsUntil } from "./channel-backoff";
import { createChannelLanes, type LaneItem } from "./channel-lanes";
import { type Claimed, claimPublications, keepClaimsAlive, releaseClaims } from "./claim-publications";
import { LANE_JOB_GRACE_MS, leaseMs, settleAbandonedCall, sweepPublications } from "./publication-lease";
import { ensurePublishQueue, PUBLISH_QUEUE, type PublishJobData } from "./publication-queue";
import { runClaimed } from "./run-publication";

const globalForSweep = globalThis as unknown as {
  brandStudioPublishSweep?: NodeJS.Timeout;
  brandStudioPublishLeases?: NodeJS.Timeout;
};

/**
 * Per process: one fetch loop taking up to PUBLISH_BATCH due publications' jobs at a time, oldest first (the
 * next fetch at once while they come full), and claiming their publications in one statement. One loop, so
 * a channel's publications reach its lane in their order (concurrent fetches would split them). The claims
 * go to the channel lanes (channel-lanes.ts): one send at a time per channel, in order, PUBLISH_LANES
 * channels at once. A channel that must wait (a 429's retry_after, or the pace it taught) gives its claims
 * back; after a short wait its lane takes them again itself (this process knows the channel's pace), after a
 * long one their jobs do; either way its lane goes to another channel meanwhile. A fetch's jobs are done once
 * claimed (the rows say the rest; a dead worker's claims run out their lease and are swept); the loop waits
 * while PUBLISH_READY claims are ready to run here, so two workers share a burst; a stopping worker gives back
 * the claims it has not started.
 */
const PUBLISH_BATCH = 100;
const PUBLISH_LANES = 20;
const PUBLISH_READY = PUBLISH_LANES * 10;
/** A channel's wait this short is slept in its lane; up to PARK_UP_TO_MS, the lane takes its claims again itself. */
const PACE_SLEEP_MS = 1000;
const PARK_UP_TO_MS = 30_000;
/** A run that died (the database, a bug) is given back to be run again this much later. */
const RETRY_DIED_MS = 2000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Run = LaneItem & Claimed & { job: Job<PublishJobData> };

const laneItem = (claim: Claimed, job: Job<PublishJobData>): Run => ({
  ...claim,
  job,
  lane: claim.row.channelId ?? `publication:${claim.row.id}`,
  channelId: claim.row.channelId,
  order: [claim.row.publishAt.getTime(), claim.row.createdAt.getTime(), claim.row.id],
});

function release(boss: PgBoss, runs: Run[], at: Date, reason: string, jobAt = at) {
  if (runs.length === 0) return Promise.resolve();
  return releaseClaims(boss, runs, at, jobAt).then(
    (ids) => {
      if (ids.length > 0)
        log.info("publication_postponed", {
          channelId: runs[0].channelId,
          publications: ids.length,
          until: at.toISOString(),
          reason,
        });
    },
    // Still claimed: the lease runs out and the sweep queues them again.
    (error) => log.error("publication_release_failed", { publications: runs.length, error }),
  );
}

/** One run, in a CONSUMER span under the enqueue's (the POST's trace, or the run that rescheduled it). */
function run(boss: PgBoss, item: Run): Promise<"again" | undefined> {
  return trackHandler(() =>
    runInSpan(PUBLISH_QUEUE, item.job, { "brand_studio.publication_id": item.row.id }, async (span) => {
      try {
        const outcome = await runClaimed(boss, item.row, item.token);
        // "again": a 429 left it claimed, for its lane to run when the channel may be called.
        countRun(PUBLISH_QUEUE, span, "succeeded");
        return outcome === "again" ? "again" : undefined;
      } catch (error) {
        // The run died before it settled: what it left is the row's to say (no call made → run again soon;
        // mid-call → the sweep settles it once the lease is over).
        countRun(PUBLISH_QUEUE, span, "retried");
        log.error("publication_run_failed", { publicationId: item.row.id, error });
        await release(boss, [item], new Date(Date.now() + RETRY_DIED_MS), "run_failed");
        return undefined;
      }
    }),
  );
}

/** Publishes due publications, channel by channel, and sweeps what dead workers left. */
export const publishWorker: QueueWorker = {
  name: "publish",
  async start(boss) {
    await ensurePublishQueue(boss);
    let stopping = false;
    const lanes = createChannelLanes<Run>({
      maxLanes: PUBLISH_LANES,
      sleepUpToMs: PACE_SLEEP_MS,
      parkUpToMs: PARK_UP_TO_MS,
      waitsUntil: channelWaitsUntil,
      run: (item) => run(boss, item),
      release: (items, at) => release(boss, items, at, stopping ? "worker_stopping" : "channel_waits"),
      park: (items, at) =>
        release(boss, items, at, "channel_parked", new Date(at.getTime() + LANE_JOB_GRACE_MS)),
      resume: async (items) => {
        const jobs = new Map(items.map((item) => [item.row.id, item.job]));
        return (await claimPublications([...jobs.keys()])).map((claim) =>
          laneItem(claim, jobs.get(claim.row.id) as Job<PublishJobData>),
        );
      },
    });
    onQueueStopping("publish", () => {
      stopping = true;
      return lanes.stop();
    });
    await boss.work<PublishJobData>(
      PUBLISH_QUEUE,
      {
        localConcurrency: 1,
        batchSize: PUBLISH_BATCH,
        burstWhenBatchFull: true,
        pollingIntervalSeconds: 1,
        notifyPollingIntervalSeconds: 1,
      },
      (jobs) =>
        trackHandler(async () => {
          // Failed back to the queue (retried shortly, by whichever worker goes on) rather than claimed here.
          if (lanes.stopping) throw new Error("The worker is stopping.");
          while (lanes.ready() >= PUBLISH_READY && !lanes.stopping) await sleep(50);
          const claimed = new Map(
            (await claimPublications(jobs.map((job) => job.data.publicationId))).map((c) => [c.row.id, c]),
          );
          const unclaimed: string[] = [];
          for (const job of jobs) {
            const claim = claimed.get(job.data.publicationId);
            if (!claim) {
              unclaimed.push(job.data.publicationId);
              continue;
            }
            claimed.delete(job.data.publicationId);
            void lanes.add(laneItem(claim, job));
          }
          // Not ours to run: done, canceled, not yet due (rescheduled), owned by a live run, or left mid-call
          // by a run that died; the last is settled from what the platform says (the sweep too).
          await settleAbandonedCall(boss, ...unclaimed);
        }),
    );
    // Claims waiting their turn in a lane keep their lease (one statement for all of them).
    if (globalForSweep.brandStudioPublishLeases) clearInterval(globalForSweep.brandStudioPublishLeases);
    globalForSweep.brandStudioPublishLeases = setInterval(
      () =>
        void keepClaimsAlive(lanes.waiting()).catch((error) =>
          log.error("publication_lease_renewal_failed", { error }),
        ),
      Math.max(1000, leaseMs() / 3),
    );
    globalForSweep.brandStudioPublishLeases.unref();
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
