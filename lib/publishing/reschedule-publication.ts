import "server-only";
import { and, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { channelConnections, posts, publications } from "@/db/schema";
import { recordActivity } from "@/lib/activity/record-activity";
import type { Principal } from "@/lib/auth/authenticate";
import { requireBrandPermission } from "@/lib/brands/brand-access";
import type { ReschedulePublicationInput } from "@/lib/contracts/publishing";
import { ApiError, notFound } from "@/lib/errors/api-error";
import { log } from "@/lib/log";
import { assertPublishable, openQueue } from "./create-publication";
import { enqueuePublication } from "./publication-queue";
import { toPublicationView } from "./publication-view";
import { getPublicationRow } from "./publications";

const notReschedulable = (status: string) =>
  new ApiError(
    "publication_not_reschedulable",
    `This publication is already ${status}; only a scheduled or held one can be moved to another time.`,
    { details: { status } },
  );

/**
 * PATCH /api/publications/{id} `{publishAt}`: a scheduled publication that has not started (also one
 * waiting to retry after a 429) or a held one moves to a new time (a held one stays held). Checked as at create (the connection, approval, the channel's rules). The row's new publishAt and a
 * queue job at that time are committed together; the job queued for the old time still fires, but a run
 * claims only a row that is `scheduled` and due (publishAt ≤ now), so it finds nothing to do. The update and
 * the claim are both conditional UPDATEs of the one row: whichever commits first wins, and the other sees
 * it (a run that claimed first makes this a 409; a reschedule first makes the old run a no-op).
 */
export async function reschedulePublication({
  principal,
  publicationId,
  input,
}: {
  principal: Principal;
  publicationId: string;
  input: ReschedulePublicationInput;
}) {
  const row = await getPublicationRow({ principal, publicationId });
  const { brand } = await requireBrandPermission({
    principal,
    brandId: row.brandId,
    permission: "publication.cancel",
  });
  if (row.status !== "scheduled" && row.status !== "held") throw notReschedulable(row.status);
  const db = await getDb();
  const [context] = await db
    .select({ post: posts, channel: channelConnections })
    .from(posts)
    .leftJoin(channelConnections, eq(channelConnections.id, row.channelId ?? ""))
    .where(eq(posts.id, row.postId));
  if (!context) throw notFound("Post");
  if (!context.channel) throw notFound("Channel");
  await assertPublishable({
    // A held publication waits for the approval, which checks the post again when it resumes it.
    requiresApproval: brand.requiresApproval && row.status === "scheduled",
    post: context.post,
    channel: context.channel,
    placement: row.placement,
  });

  const publishAt = new Date(input.publishAt);
  const boss = await openQueue();
  const moved = await db.transaction(async (tx) => {
    const [updated] = await tx
      .update(publications)
      .set({ publishAt, nextAttemptAt: null, slotAt: null, updatedAt: new Date() })
      .where(and(eq(publications.id, publicationId), eq(publications.status, row.status)))
      .returning();
    if (updated?.status === "scheduled")
      await enqueuePublication({ boss, tx, publicationId, startAfter: publishAt });
    if (updated)
      await recordActivity(tx, {
        brandId: updated.brandId,
        actorId: principal.userId,
        action: "publication.moved",
        subjectType: "publication",
        subjectId: publicationId,
        details: { postId: updated.postId, from: row.publishAt.toISOString(), to: publishAt.toISOString() },
      });
    return updated;
  });
  if (!moved) {
    const current = await getPublicationRow({ principal, publicationId });
    throw notReschedulable(current.status);
  }
  log.info("publication_rescheduled", {
    publicationId,
    from: row.publishAt.toISOString(),
    to: publishAt.toISOString(),
  });
  return toPublicationView(moved);
}
