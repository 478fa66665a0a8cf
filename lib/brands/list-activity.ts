import "server-only";
import { eq } from "drizzle-orm";
import { type ActivityEntry, activityLog } from "@/db/schema";
import type { Principal } from "@/lib/auth/authenticate";
import { requireBrandPermission } from "@/lib/brands/brand-access";
import type { ActivityEntryView } from "@/lib/contracts/activity";
import type { ActivityAction } from "@/lib/contracts/activity-actions";
import type { PageCursor } from "@/lib/contracts/common";
import { pageBy } from "@/lib/query/page-by";

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
  const { page, nextCursor } = await pageBy<ActivityEntry>(activityLog, eq(activityLog.brandId, brandId), {
    cursor,
    limit,
  });
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
    nextCursor,
  };
}
