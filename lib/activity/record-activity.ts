import "server-only";
import { eq, sql } from "drizzle-orm";
import type { Tx } from "@/db/client";
import { activityLog, brandMembers, users } from "@/db/schema";
import type { ActivityAction } from "@/lib/contracts/activity-actions";
import { newId } from "@/lib/ids";

/**
 * Appends one entry to a brand's activity log, inside the transaction of the change it records, so the
 * entry exists exactly when the change does. The actor's email is copied, so the entry still names them
 * after the account is deleted.
 */
type ActivityEntry = {
  brandId: string;
  actorId: string;
  action: ActivityAction;
  subjectType?:
    | "brand"
    | "member"
    | "invitation"
    | "post"
    | "video"
    | "api_key"
    | "webhook"
    | "publication"
    | "channel";
  subjectId?: string;
  details?: Record<string, unknown>;
};

export async function recordActivity(tx: Tx, entry: ActivityEntry) {
  await tx.insert(activityLog).values({
    id: newId("act"),
    brandId: entry.brandId,
    actorId: entry.actorId,
    actorEmail: sql`(select ${users.email} from ${users} where ${users.id} = ${entry.actorId})`,
    action: entry.action,
    subjectType: entry.subjectType ?? null,
    subjectId: entry.subjectId ?? null,
    details: entry.details ?? {},
    // Millisecond time from here (not the transaction's now()), so list cursors compare exactly.
    createdAt: new Date(),
  });
}

/**
 * A change to something of the actor's own that acts on all their brands (an API key, a webhook): one
 * entry in the log of every brand they are a member of, in the change's transaction.
 */
export async function recordMemberActivity(tx: Tx, entry: Omit<ActivityEntry, "brandId">) {
  const memberships = await tx
    .select({ brandId: brandMembers.brandId })
    .from(brandMembers)
    .where(eq(brandMembers.userId, entry.actorId));
  for (const { brandId } of memberships) await recordActivity(tx, { ...entry, brandId });
}
