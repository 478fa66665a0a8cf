import "server-only";
import { and, eq, inArray, ne, or, type SQL, sql } from "drizzle-orm";
import { getDb, type Tx } from "@/db/client";
import { brands, type Publication, posts, publications } from "@/db/schema";
import { log } from "@/lib/log";
import { metrics } from "@/lib/telemetry/metrics";
import { enqueueDeliveries } from "@/lib/webhooks/record-event";
import { writePublicationEvents } from "./emit-publication-event";
import type { Sent } from "./platforms/adapter";
import { finish } from "./publication-lease";

// The settlement of publications the platform took, a batch at a time: what finish() does for one
// (published, its post's status, the webhook event in the same transaction as its outbox), in one statement
// each for all the publications whose sends ended while the previous batch was being written. A lane waits
// for its publication's batch before its next send, so a batch is at most one publication per lane.

type Published = { row: Publication; token: string; sent: Sent };
type Waiting = { item: Published; resolve: () => void; reject: (error: unknown) => void };

const BATCH = 100;
const globalForFinish = globalThis as unknown as {
  brandStudioFinishPublished?: { queue: Waiting[]; flushing: boolean };
};
const state = () => {
  globalForFinish.brandStudioFinishPublished ??= { queue: [], flushing: false };
  return globalForFinish.brandStudioFinishPublished;
};

/**
 * Settles a publication the platform took: `published` with what the platform said, if `token` still
 * owns it. Resolves once committed (with the others that ended meanwhile).
 */
export function finishPublished(row: Publication, token: string, sent: Sent): Promise<void> {
  return new Promise((resolve, reject) => {
    state().queue.push({ item: { row, token, sent }, resolve, reject });
    if (!state().flushing) void flush();
  });
}

async function flush() {
  const { queue } = state();
  state().flushing = true;
  try {
    while (queue.length > 0) {
      const batch = queue.splice(0, BATCH);
      try {
        await finishBatch(batch.map((w) => w.item));
        for (const waiting of batch) waiting.resolve();
      } catch (error) {
        // One by one: a row's own trouble (or a deadlock with another worker's batch on a shared post)
        // settles only that one as it would alone.
        log.warn("publication_batch_settle_failed", { publications: batch.length, error });
        for (const { item, resolve, reject } of batch) {
          await finish(item.row, item.token, { status: "published", ...item.sent }).then(resolve, reject);
        }
      }
    }
  } finally {
    state().flushing = false;
  }
}

/** Each item's value for its row: `case id when … then … end`. */
function perRow(items: Published[], value: (item: Published) => SQL) {
  return sql`(case ${publications.id} ${sql.join(
    items.map((item) => sql`when ${item.row.id} then ${value(item)}`),
    sql` `,
  )} end)`;
}

/**
 * What settlePostStatus decides for a post with a publication just published, for all of them at once:
 * `published`, unless it is in review (or sent back to draft) on a brand that requires approval (DESIGN §11).
 */
async function markPostsPublished(tx: Tx, postIds: string[]) {
  await tx
    .update(posts)
    .set({ status: "published", updatedAt: new Date() })
    .where(
      and(
        inArray(posts.id, postIds),
        ne(posts.status, "published"),
        sql`not (${posts.status} in ('in_review', 'draft') and exists (select 1 from ${brands} where ${brands.id} = ${posts.brandId} and ${brands.requiresApproval}))`,
      ),
    );
}

async function finishBatch(items: Published[]) {
  const db = await getDb();
  const now = new Date();
  const done = await db.transaction(async (tx) => {
    const updated = await tx
      .update(publications)
      .set({
        status: "published",
        externalId: perRow(items, (item) => sql`${item.sent.externalId}::text`),
        permalink: perRow(items, (item) => sql`${item.sent.permalink}::text`),
        publishedAt: perRow(items, (item) => sql`${item.sent.publishedAt.toISOString()}::timestamptz`),
        claimToken: null,
        leaseUntil: null,
        finishedAt: now,
        updatedAt: now,
      })
      .where(
        and(
          eq(publications.status, "publishing"),
          or(
            ...items.map((item) =>
              and(eq(publications.id, item.row.id), eq(publications.claimToken, item.token)),
            ),
          ),
        ),
      )
      .returning();
    if (updated.length === 0) return { updated, deliveries: [] };
    await markPostsPublished(tx, [...new Set(updated.map((row) => row.postId))]);
    // The webhook events are written with the settlement (an outbox), queued after the commit below.
    return { updated, deliveries: await writePublicationEvents(tx, updated) };
  });
  for (const row of done.updated) {
    metrics().publications.inc({ platform: row.channel, outcome: "published" });
    log.info("publication_published", { publicationId: row.id, attempts: row.attempts });
  }
  await enqueueDeliveries(done.deliveries);
}
