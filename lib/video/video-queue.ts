import { sql } from "drizzle-orm";
import type { DrizzleTransactionLike, PgBoss, Db as QueueDb } from "pg-boss";
import type { Tx } from "@/db/client";
import { enqueueInSpan, type TracedJob } from "@/lib/queue/job-spans";

/** Renders, one pg-boss job per video job. */
export const VIDEO_RENDER_QUEUE = "video-render";
/** Where pg-boss moves a render that used up its retries (or whose worker died on the last one). */
export const VIDEO_RENDER_FAILED_QUEUE = "video-render-failed";

/** `trace`: the W3C context of the enqueue (tracing on), so the worker's run continues the POST's trace. */
export type VideoRenderJobData = { videoJobId: string } & TracedJob;

/** Three attempts in all, 2–4 s apart and then longer, before the job ends `failed`. */
export const RENDER_RETRY_LIMIT = 2;

const RENDER_QUEUE_OPTIONS = {
  retryLimit: RENDER_RETRY_LIMIT,
  retryDelay: 2,
  retryBackoff: true,
  retryDelayMax: 60,
  // A live worker refreshes the heartbeat every 5 s; one that died (SIGKILL, power loss) stops, and
  // the job is retried elsewhere once 10 s pass without one.
  heartbeatSeconds: 10,
  expireInSeconds: 15 * 60,
  deadLetter: VIDEO_RENDER_FAILED_QUEUE,
  // The enqueue's NOTIFY (sent when our transaction commits) wakes an idle worker at once.
  notify: true,
} as const;

const globalForVideoQueues = globalThis as unknown as {
  brandStudioVideoQueues?: WeakMap<PgBoss, Promise<void>>;
};

async function createVideoQueues(boss: PgBoss) {
  if (!(await boss.getQueue(VIDEO_RENDER_FAILED_QUEUE))) {
    await boss.createQueue(VIDEO_RENDER_FAILED_QUEUE, { retryLimit: 5, retryDelay: 5, retryBackoff: true });
  }
  if (await boss.getQueue(VIDEO_RENDER_QUEUE))
    await boss.updateQueue(VIDEO_RENDER_QUEUE, RENDER_QUEUE_OPTIONS);
  else await boss.createQueue(VIDEO_RENDER_QUEUE, RENDER_QUEUE_OPTIONS);
  // pg-boss looks a queue up in its cache on every send and cancel; a miss reads it through pg-boss's
  // own connection. Inside one of our transactions on PGlite (a single connection) that read would wait
  // for the transaction forever, so the cache is filled here, before any transaction.
  for (const name of [VIDEO_RENDER_QUEUE, VIDEO_RENDER_FAILED_QUEUE]) {
    await boss.findJobs(name, { id: "00000000-0000-0000-0000-000000000000" });
  }
}

/** Creates (or updates) the video queues once per process and pg-boss instance. */
export function ensureVideoQueues(boss: PgBoss): Promise<void> {
  globalForVideoQueues.brandStudioVideoQueues ??= new WeakMap();
  const known = globalForVideoQueues.brandStudioVideoQueues;
  let ready = known.get(boss);
  if (!ready) {
    ready = createVideoQueues(boss);
    ready.catch(() => known.delete(boss));
    known.set(boss, ready);
  }
  return ready;
}

/** pg-boss statements run through our transaction (pg-boss is ESM-only, so it is imported lazily). */
async function inTransaction(tx: Tx): Promise<QueueDb> {
  const { fromDrizzle } = await import("pg-boss");
  // drizzle types execute() as resolving to `unknown`; at runtime it is the driver's result, which the
  // adapter unwraps for both postgres.js and PGlite.
  return fromDrizzle(tx as unknown as DrizzleTransactionLike, sql);
}

/**
 * Puts a render on the queue inside the caller's transaction, so the job row and its queue entry are
 * committed together or not at all.
 */
export async function enqueueRender({
  boss,
  tx,
  queueJobId,
  videoJobId,
  estimatedSeconds,
}: {
  boss: PgBoss;
  tx: Tx;
  queueJobId: string;
  videoJobId: string;
  estimatedSeconds: number;
}) {
  await enqueueInSpan(
    VIDEO_RENDER_QUEUE,
    { "messaging.message.id": queueJobId, "brand_studio.video_job_id": videoJobId },
    async (trace) => {
      const data: VideoRenderJobData = { videoJobId, trace };
      const sent = await boss.send(VIDEO_RENDER_QUEUE, data, {
        id: queueJobId,
        // Expiry only bounds a render that hangs while its worker lives on; a dead worker is caught by the
        // heartbeat long before.
        expireInSeconds: Math.min(3600, Math.max(300, estimatedSeconds * 10)),
        db: await inTransaction(tx),
      });
      if (!sent) throw new Error("The queue did not accept the render.");
    },
  );
}
