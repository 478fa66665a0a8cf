import "server-only";
import { and, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { channelConnections, posts, publications } from "@/db/schema";
import type { Principal } from "@/lib/auth/authenticate";
import { requireBrandPermission } from "@/lib/brands/brand-access";
import type { MarkPublicationPostedInput } from "@/lib/contracts/publishing";
import { ApiError, notFound } from "@/lib/errors/api-error";
import { log } from "@/lib/log";
import { enqueueDeliveries } from "@/lib/webhooks/record-event";
import { assertPublishable, openQueue } from "./create-publication";
import { writePublicationEvent } from "./emit-publication-event";
import { settlePostStatus } from "./post-status";
import { enqueuePublication } from "./publication-queue";
import { toPublicationView } from "./publication-view";
import { getPublicationRow } from "./publications";

/** Only a publication that ended `failed` `publish_outcome_unknown` has an outcome for a person to settle. */
const unknownOutcome = and(
  eq(publications.status, "failed"),
  eq(publications.errorCode, "publish_outcome_unknown"),
);

function outcomeKnown(status: string) {
  return new ApiError(
    "publication_outcome_known",
    `This publication is ${status}, and its outcome is known; only one that failed with publish_outcome_unknown can be marked posted or sent again.`,
    { details: { status } },
  );
}

async function unknownRow(principal: Principal, publicationId: string) {
  const row = await getPublicationRow({ principal, publicationId });
  const { brand } = await requireBrandPermission({
    principal,
    brandId: row.brandId,
    permission: "publication.create",
  });
  if (row.status !== "failed" || row.errorCode !== "publish_outcome_unknown") throw outcomeKnown(row.status);
  return { row, brand };
}

/**
 * POST /api/publications/{id}/posted: a person checked the channel and the post is there ("It was posted"):
 * the publication becomes `published` with the link they give (DESIGN §11).
 */
export async function markPublicationPosted({
  principal,
  publicationId,
  input,
}: {
  principal: Principal;
  publicationId: string;
  input: MarkPublicationPostedInput;
}) {
  await unknownRow(principal, publicationId);
  const db = await getDb();
  const now = new Date();
  const marked = await db.transaction(async (tx) => {
    const [updated] = await tx
      .update(publications)
      .set({
        status: "published",
        permalink: input.permalink,
        publishedAt: now,
        finishedAt: now,
        errorCode: null,
        errorMessage: null,
        errorRetryable: null,
        updatedAt: now,
      })
      .where(and(eq(publications.id, publicationId), unknownOutcome))
      .returning();
    if (!updated) return null;
    await settlePostStatus(updated.postId, tx);
    // The webhook event is written with the settlement (an outbox), queued after the commit below.
    return { ...updated, deliveries: await writePublicationEvent(tx, updated) };
  });
  if (!marked) throw outcomeKnown((await getPublicationRow({ principal, publicationId })).status);
  log.info("publication_marked_posted", { publicationId });
  await enqueueDeliveries(marked.deliveries);
  return toPublicationView(marked);
}

/**
 * POST /api/publications/{id}/send-again: a person checked the channel and the post is missing ("Send
 * again"): checked as at create (the connection, approval and the content's version, the channel's rules),
 * the publication is `scheduled` now and queued, committed together.
 */
export async function sendPublicationAgain({
  principal,
  publicationId,
}: {
  principal: Principal;
  publicationId: string;
}) {
  const { row, brand } = await unknownRow(principal, publicationId);
  const db = await getDb();
  const [context] = await db
    .select({ post: posts, channel: channelConnections })
    .from(posts)
    .leftJoin(channelConnections, eq(channelConnections.id, row.channelId ?? ""))
    .where(eq(posts.id, row.postId));
  if (!context) throw notFound("Post");
  if (!context.channel) throw notFound("Channel");
  await assertPublishable({
    requiresApproval: brand.requiresApproval,
    post: context.post,
    channel: context.channel,
    placement: row.placement,
  });
  const boss = await openQueue();
  const now = new Date();
  const again = await db.transaction(async (tx) => {
    const [updated] = await tx
      .update(publications)
      .set({
        status: "scheduled",
        publishAt: now,
        nextAttemptAt: null,
        callStartedAt: null,
        callRef: null,
        finishedAt: null,
        errorCode: null,
        errorMessage: null,
        errorRetryable: null,
        updatedAt: now,
      })
      .where(and(eq(publications.id, publicationId), unknownOutcome))
      .returning();
    if (!updated) return undefined;
    await enqueuePublication({ boss, tx, publicationId, startAfter: now });
    await settlePostStatus(updated.postId, tx);
    return updated;
  });
  if (!again) throw outcomeKnown((await getPublicationRow({ principal, publicationId })).status);
  log.info("publication_sent_again", { publicationId });
  return toPublicationView(again);
}
