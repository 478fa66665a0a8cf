import "server-only";
import { and, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { brandInvitations } from "@/db/schema";
import { recordActivity } from "@/lib/activity/record-activity";
import type { Principal } from "@/lib/auth/authenticate";
import { requireBrandPermission } from "@/lib/brands/brand-access";
import { notFound } from "@/lib/errors/api-error";
import { inviterOf, statusOf, toResponse, unavailable } from "./invitation";

/** DELETE …/invitations/{invitationId}: the link then says it was revoked. Revoking twice is a no-op. */
export async function revokeInvitation({
  principal,
  brandId,
  invitationId,
}: {
  principal: Principal;
  brandId: string;
  invitationId: string;
}) {
  const db = await getDb();
  return db.transaction(async (tx) => {
    await requireBrandPermission({ principal, brandId, permission: "member.manage", tx });
    const [current] = await tx
      .select()
      .from(brandInvitations)
      .where(and(eq(brandInvitations.id, invitationId), eq(brandInvitations.brandId, brandId)))
      .for("update");
    if (!current) throw notFound("Invitation");
    let row = current;
    if (statusOf(current) === "accepted") throw unavailable("accepted");
    if (!current.revokedAt) {
      [row] = await tx
        .update(brandInvitations)
        .set({ revokedAt: new Date() })
        .where(eq(brandInvitations.id, invitationId))
        .returning();
      await recordActivity(tx, {
        brandId,
        actorId: principal.userId,
        action: "invitation.revoked",
        subjectType: "invitation",
        subjectId: row.id,
        details: { email: row.email, role: row.role },
      });
    }
    const inviter = row.invitedBy ? await inviterOf(row.invitedBy, tx) : undefined;
    return toResponse(row, inviter?.email ?? null);
  });
}
