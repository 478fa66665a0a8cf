import "server-only";
import { and, eq } from "drizzle-orm";
import type { Tx } from "@/db/client";
import { publications } from "@/db/schema";

/**
 * DESIGN §11: an edit of an approved post (brand requires approval) holds its waiting publications, also
 * one waiting to retry: `scheduled` → `held`. A run claims only `scheduled` rows, so nothing is sent until
 * an owner approves the new version. Inside the edit's transaction (the post row is locked).
 */
export async function holdPublications(tx: Tx, postId: string) {
  const held = await tx
    .update(publications)
    // An Instagram container made from the old content (callRef, known not posted) is not reused.
    .set({ status: "held", nextAttemptAt: null, callRef: null, updatedAt: new Date() })
    .where(and(eq(publications.postId, postId), eq(publications.status, "scheduled")))
    .returning({ id: publications.id });
  return held.length;
}
