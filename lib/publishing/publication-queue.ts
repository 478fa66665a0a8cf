import { eq, sql } from "drizzle-orm";
import type { DrizzleTransactionLike, PgBoss, Db as QueueDb } from "pg-boss";
import { getDb, type Tx } from "@/db/client";
import { publications } from "@/db/schema";
import { enqueueInSpan, type TracedJob } from "@/lib/queue/job-spans";

/** One pg-boss job per attempt to run a publication (the first, each retry, each sweep). */
export const PUBLISH_QUEUE = "publish";

/** `trace`: the W3C context of the enqueue (tracing on), so the run continues the request's trace. */
export type PublishJobData = { publicationId: string } & TracedJob;

const PUBLISH_QUEUE_OPTIONS = {
  // The handler never throws for a platform's answer (it schedules its own retries, honouring
  // retry_after); pg-boss retries only a handler that died, and the row decides what such a retry may do.
  retryLimit: 3,
  retryDelay: 2,
  retryBackoff: true,
  heartbeatSeconds: 10,
  expireInSeconds: 15 * 60,
  notify: true,
} as const;

const globalForPublishQueue = globalThis as unknown as {
  brandStudioPublishQueue?: WeakMap<PgBoss, Promise<void>>;
};

async function createPublishQueue(boss: PgBoss) {
  if (await boss.getQueue(PUBLISH_QUEUE)) await boss.updateQueue(PUBLISH_QUEUE, PUBLISH_QUEUE_OPTIONS);
  else await boss.createQueue(PUBLISH_QUEUE, PUBLISH_QUEUE_OPTIONS);
  // Fills pg-boss's queue cache before any transaction (see ensureVideoQueues).
  await boss.findJobs(PUBLISH_QUEUE, { id: "00000000-0000-0000-0000-000000000000" });
}

export function ensurePublishQueue(boss: PgBoss): Promise<void> {
  globalForPublishQueue.brandStudioPublishQueue ??= new WeakMap();
  const known = globalForPublishQueue.brandStudioPublishQueue;
  let ready = known.get(boss);
  if (!ready) {
    ready = createPublishQueue(boss);
    ready.catch(() => known.delete(boss));
    known.set(boss, ready);
  }
  return ready;
}

/** Queues a run of the publication at `startAfter`, inside `tx` when given (committed with the row). */
export async function enqueuePublication({
  boss,
  tx,
  publicationId,
  startAfter,
}: {
  boss: PgBoss;
  tx?: Tx;
  publicationId: string;
  startAfter: Date;
}) {
  // The job's group is the publication's channel (what a queue listing shows; the worker's lanes, not
  // pg-boss, decide how a channel's runs share the worker). Read in `tx` when given (the row may be written in it).
  const [row] = await (tx ?? (await getDb()))
    .select({ channelId: publications.channelId })
    .from(publications)
    .where(eq(publications.id, publicationId));
  return enqueueInSpan(PUBLISH_QUEUE, { "brand_studio.publication_id": publicationId }, async (trace) => {
    const data: PublishJobData = { publicationId, trace };
    let db: QueueDb | undefined;
    if (tx) {
      const { fromDrizzle } = await import("pg-boss");
      db = fromDrizzle(tx as unknown as DrizzleTransactionLike, sql);
    }
    const sent = await boss.send(PUBLISH_QUEUE, data, {
      startAfter,
      ...(row?.channelId ? { group: { id: row.channelId } } : {}),
      ...(db ? { db } : {}),
    });
    if (!sent) throw new Error("The queue did not accept the publication.");
    return sent;
  });
}

/**
 * Queues a run of each publication at `startAfter`, in one statement (the claims a worker gave back, see
 * releaseClaims); the channel is each job's group, as enqueuePublication makes it.
 */
export async function enqueuePublications(
  boss: PgBoss,
  items: { publicationId: string; channelId: string | null }[],
  startAfter: Date,
) {
  if (items.length === 0) return;
  await enqueueInSpan(PUBLISH_QUEUE, { "brand_studio.publications": items.length }, async (trace) => {
    await boss.insert(
      PUBLISH_QUEUE,
      items.map(({ publicationId, channelId }) => ({
        data: { publicationId, trace } satisfies PublishJobData,
        startAfter,
        ...(channelId ? { group: { id: channelId } } : {}),
      })),
    );
  });
}
