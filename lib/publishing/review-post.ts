import "server-only";
import { and, asc, eq, inArray } from "drizzle-orm";
import { getDb } from "@/db/client";
import { brandMembers, brands, posts } from "@/db/schema";
import { recordActivity } from "@/lib/activity/record-activity";
import type { Principal } from "@/lib/auth/authenticate";
import { BRAND_ROLES } from "@/lib/contracts/enums";
import { PERMISSIONS, roleRank } from "@/lib/contracts/permissions";
import type { PostView } from "@/lib/contracts/posts";
import { ApiError } from "@/lib/errors/api-error";
import { contentHash } from "@/lib/posts/content-hash";
import { getPostForPrincipal } from "@/lib/posts/get-post";
import { type ReviewAction, reviewTransition } from "@/lib/posts/post-state";
import { toSignedPostView } from "@/lib/posts/post-view";
import { openQueue } from "@/lib/publishing/create-publication";
import { heldPublicationCount, resumePublications } from "@/lib/publishing/hold-publications";
import { settlePostStatus } from "@/lib/publishing/post-status";

/** 412: the post is no longer the version the reviewer named. */
export function postChanged(currentVersion: string) {
  return new ApiError(
    "post_changed",
    "The post was edited since you opened it. Reload it, read the new version, then decide again.",
    { details: { version: currentVersion } },
  );
}

const ACTIVITY = {
  submit: "post.submitted",
  approve: "post.approved",
  request_changes: "post.changes_requested",
} as const;

/**
 * Submit (editor), approve or request changes (owner): one locked read, the state machine's transition,
 * and the activity entry, in one transaction.
 */
export async function reviewPost({
  principal,
  postId,
  action,
  comment,
  version,
}: {
  principal: Principal;
  postId: string;
  action: ReviewAction;
  comment?: string;
  /** The version the reviewer saw (body `version` or If-Match); required to approve. */
  version?: string;
}): Promise<PostView> {
  if (action === "request_changes" && !comment) {
    const message = "Say what to change: a comment is required to request changes.";
    throw new ApiError("invalid_request", message, { details: [{ path: "comment", message }] });
  }
  const db = await getDb();
  // Approving resumes held publications, which are queued with the approval: the queue is opened first.
  const boss =
    action === "approve" && (await heldPublicationCount(db, postId)) > 0 ? await openQueue() : null;
  const row = await db.transaction(async (tx) => {
    const permission = action === "submit" ? "post.submit" : "post.approve";
    const current = await getPostForPrincipal({ principal, postId, permission, tx, forUpdate: true });
    if (action === "approve" && !version) {
      const message =
        "Name the version you approve: send the post's `version` (or its ETag as If-Match), so an edit made since you read it is not approved unseen.";
      throw new ApiError("invalid_request", message, { details: [{ path: "version", message }] });
    }
    const currentVersion = contentHash(current);
    if (version && version !== currentVersion) throw postChanged(currentVersion);
    const status = reviewTransition(current.status, action);
    const now = new Date();
    const [reviewed] = await tx
      .update(posts)
      .set({
        status,
        ...(action === "approve" ? { approvedHash: currentVersion } : {}),
        reviewAction:
          action === "submit" ? "submitted" : action === "approve" ? "approved" : "changes_requested",
        reviewedBy: principal.userId,
        reviewedAt: now,
        reviewComment: comment ?? null,
        updatedAt: now,
      })
      .where(eq(posts.id, postId))
      .returning();
    let updated = reviewed;
    if (action === "approve") {
      // The new version's approval resumes what the edit held, and the post shows where it stands.
      if (boss) await resumePublications(tx, postId, boss);
      await settlePostStatus(postId, tx);
      [updated] = await tx.select().from(posts).where(eq(posts.id, postId));
    }
    await recordActivity(tx, {
      brandId: current.brandId,
      actorId: principal.userId,
      action: ACTIVITY[action],
      subjectType: "post",
      subjectId: postId,
      details: {
        from: current.status,
        to: updated.status,
        version: currentVersion,
        ...(comment ? { comment } : {}),
      },
    });
    return updated;
  });
  return toSignedPostView(row);
}

/** GET /api/reviews: posts in review on the brands where the caller's role may approve. */
export async function listReviewQueue({ principal }: { principal: Principal }) {
  const db = await getDb();
  const approvers = BRAND_ROLES.filter((role) => roleRank(role) >= roleRank(PERMISSIONS["post.approve"]));
  const rows = await db
    .select({ post: posts })
    .from(posts)
    .innerJoin(brands, eq(brands.id, posts.brandId))
    .innerJoin(
      brandMembers,
      and(eq(brandMembers.brandId, posts.brandId), eq(brandMembers.userId, principal.userId)),
    )
    .where(and(eq(posts.status, "in_review"), inArray(brandMembers.role, approvers)))
    .orderBy(asc(posts.updatedAt))
    .limit(100);
  return { items: await Promise.all(rows.map((row) => toSignedPostView(row.post))) };
}
