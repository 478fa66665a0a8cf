import "server-only";
import { and, asc, eq, gte, inArray, lt, sql } from "drizzle-orm";
import type { z } from "zod";
import { getDb } from "@/db/client";
import { type Publication, posts, publications } from "@/db/schema";
import { recordActivity } from "@/lib/activity/record-activity";
import type { Principal } from "@/lib/auth/authenticate";
import { memberScoped, requireBrandPermission } from "@/lib/brands/brand-access";
import type { Permission } from "@/lib/contracts/permissions";
import type { listPublicationsQuery } from "@/lib/contracts/publishing";
import { ApiError } from "@/lib/errors/api-error";
import { log } from "@/lib/log";
import { settlePostStatus } from "./post-status";
import { postName, toPublicationView } from "./publication-view";

const DAY_MS = 86_400_000;

/** A publication of a brand the principal is a member of whose role may do `permission` (404 / 403 otherwise). */
export async function getPublicationRow({
  principal,
  publicationId,
  permission = "publication.read",
}: {
  principal: Principal;
  publicationId: string;
  permission?: Permission;
}): Promise<Publication> {
  return (await memberScoped(publications, publicationId, principal, permission)).row;
}

export async function getPublication(args: { principal: Principal; publicationId: string }) {
  return toPublicationView(await getPublicationRow(args));
}

export async function listPublications({
  principal,
  query,
}: {
  principal: Principal;
  query: z.output<typeof listPublicationsQuery>;
}) {
  await requireBrandPermission({ principal, brandId: query.brandId, permission: "publication.read" });
  const from = query.from ? new Date(query.from) : new Date(Date.now() - 31 * DAY_MS);
  const to = query.to ? new Date(query.to) : new Date(from.getTime() + 31 * DAY_MS);
  const db = await getDb();
  // The post's name comes with each row (the calendar makes no request per post); a caption's first words
  // are all it needs of it.
  const rows = await db
    .select({
      publication: publications,
      topic: posts.topic,
      caption: sql<string>`left(${posts.caption}, 200)`,
    })
    .from(publications)
    .innerJoin(posts, eq(posts.id, publications.postId))
    .where(
      and(
        eq(publications.brandId, query.brandId),
        gte(publications.publishAt, from),
        lt(publications.publishAt, to),
        query.postId ? eq(publications.postId, query.postId) : undefined,
      ),
    )
    .orderBy(asc(publications.publishAt), asc(publications.id))
    .limit(1000);
  return {
    items: rows.map((row) => ({
      ...toPublicationView(row.publication),
      postName: postName(row.topic, row.caption),
    })),
  };
}

/**
 * DELETE /api/publications/{id}: a scheduled one (also one waiting to retry) or a held one; the row decides
 * (a run that claimed it first wins).
 */
export async function cancelPublication({
  principal,
  publicationId,
}: {
  principal: Principal;
  publicationId: string;
}) {
  const row = await getPublicationRow({ principal, publicationId, permission: "publication.cancel" });
  if (row.status === "canceled") return toPublicationView(row);
  const db = await getDb();
  const now = new Date();
  const canceled = await db.transaction(async (tx) => {
    const [updated] = await tx
      .update(publications)
      .set({ status: "canceled", finishedAt: now, updatedAt: now })
      .where(and(eq(publications.id, publicationId), inArray(publications.status, ["scheduled", "held"])))
      .returning();
    if (updated) {
      await settlePostStatus(updated.postId, tx);
      await recordActivity(tx, {
        brandId: updated.brandId,
        actorId: principal.userId,
        action: "publication.canceled",
        subjectType: "publication",
        subjectId: publicationId,
        details: { postId: updated.postId, channel: updated.channel },
      });
    }
    return updated;
  });
  if (!canceled) {
    const current = await getPublicationRow({ principal, publicationId });
    if (current.status === "canceled") return toPublicationView(current);
    throw new ApiError(
      "publication_not_cancelable",
      `This publication is already ${current.status}; only a scheduled or held one can be canceled.`,
      { details: { status: current.status } },
    );
  }
  log.info("publication_canceled", { publicationId });
  return toPublicationView(canceled);
}
