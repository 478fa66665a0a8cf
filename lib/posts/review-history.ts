import "server-only";
import { and, asc, eq, inArray } from "drizzle-orm";
import { getDb } from "@/db/client";
import { activityLog } from "@/db/schema";
import type { PostDetailView } from "@/lib/contracts/posts";

const STEPS = {
  "post.submitted": "submitted",
  "post.approved": "approved",
  "post.changes_requested": "changes_requested",
} as const;

/**
 * The post's approval steps, oldest first, from the activity entries each review writes in its own
 * transaction (review-post.ts): who submitted which version, who asked for changes, who approved.
 */
export async function reviewHistory(
  brandId: string,
  postId: string,
): Promise<PostDetailView["reviewHistory"]> {
  const db = await getDb();
  const rows = await db
    .select()
    .from(activityLog)
    .where(
      and(
        eq(activityLog.brandId, brandId),
        eq(activityLog.subjectType, "post"),
        eq(activityLog.subjectId, postId),
        inArray(activityLog.action, Object.keys(STEPS)),
      ),
    )
    .orderBy(asc(activityLog.createdAt), asc(activityLog.id))
    .limit(100);
  return rows.map((row) => ({
    action: STEPS[row.action as keyof typeof STEPS],
    by: row.actorId,
    byEmail: row.actorEmail,
    at: row.createdAt.toISOString(),
    version: typeof row.details.version === "string" ? row.details.version : null,
    comment: typeof row.details.comment === "string" ? row.details.comment : null,
  }));
}
