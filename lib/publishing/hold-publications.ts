import "server-only";
import { and, eq } from "drizzle-orm";
import type { PgBoss } from "pg-boss";
import type { Db, Tx } from "@/db/client";
import { publications } from "@/db/schema";
import { enqueuePublication } from "./publication-queue";

/** The post's held publications, for the approval to resume (it opens the queue only when there are some). */
export async function heldPublicationCount(tx: Db | Tx, postId: string) {
  const rows = await tx
    .select({ id: publications.id })
    .from(publications)
    .where(and(eq(publications.postId, postId), eq(publications.status, "held")));
  return rows.length;
}

/**
 * The approval of a new version: the post's held publications are scheduled again, each queued for its
 * time (at once when that has passed), committed with the approval.
 */
export async function resumePublications(tx: Tx, postId: string, boss: PgBoss) {
  const resumed = await tx
    .update(publications)
    .set({ status: "scheduled", nextAttemptAt: null, updatedAt: new Date() })
    .where(and(eq(publications.postId, postId), eq(publications.status, "held")))
    .returning({ id: publications.id, publishAt: publications.publishAt });
  const now = new Date();
  for (const row of resumed) {
    const startAfter = row.publishAt > now ? row.publishAt : now;
    await enqueuePublication({ boss, tx, publicationId: row.id, startAfter });
  }
  return resumed.length;
}
