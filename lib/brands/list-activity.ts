import "server-only";
import { and, desc, eq, lt, or } from "drizzle-orm";
import { getDb } from "@/db/client";
import { activityLog } from "@/db/schema";
import type { Principal } from "@/lib/auth/authenticate";
import { requireBrandPermission } from "@/lib/brands/brand-access";
import type { ActivityEntryView } from "@/lib/contracts/activity";
import type { ActivityAction } from "@/lib/contracts/activity-actions";
import { encodePageCursor, type PageCursor } from "@/lib/contracts/common";

/** GET /api/brands/{brandId}/activity: newest first, keyset-paginated on (createdAt, id) like posts. */
export async function listActivity({
  principal,
  brandId,
  cursor,
  limit,
}: {
  principal: Principal;
  brandId: string;
  cursor?: PageCursor;
  limit: number;
}): Promise<{ items: ActivityEntryView[]; nextCursor: string | null }> {
  await requireBrandPermission({ principal, brandId, permission: "activity.read" });
  const db = await getDb();
  const rows = await db
    .select()
    .from(activityLog)
    .where(
      and(
        eq(activityLog.brandId, brandId),
        cursor
          ? or(
              lt(activityLog.createdAt, cursor.createdAt),
              and(eq(activityLog.createdAt, cursor.createdAt), lt(activityLog.id, cursor.id)),
            )
          : undefined,
      ),
    )
    .orderBy(desc(activityLog.createdAt), desc(activityLog.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    items: page.map((row) => ({
      activityId: row.id,
      brandId: row.brandId,
      action: row.action as ActivityAction,
      actorId: row.actorId,
      actorEmail: row.actorEmail,
      subjectType: row.subjectType,
      subjectId: row.subjectId,
      details: row.details,
      createdAt: row.createdAt.toISOString(),
    })),
    nextCursor: rows.length > limit && last ? encodePageCursor(last) : null,
  };
}
