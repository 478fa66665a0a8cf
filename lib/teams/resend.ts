import "server-only";
import { and, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { brandInvitations } from "@/db/schema";
import { recordActivity } from "@/lib/activity/record-activity";
import type { Principal } from "@/lib/auth/authenticate";
import { requireBrandPermission } from "@/lib/brands/brand-access";
import { notFound } from "@/lib/errors/api-error";
import {
  countInvitationEmail,
  deliver,
  expiry,
  hashToken,
  inviterOf,
  newToken,
  statusOf,
  unavailable,
} from "./invitation";

/** POST …/invitations/{invitationId}/resend: a new token and expiry (the old link stops), sent again. */
export async function resendInvitation({
  principal,
  brandId,
  invitationId,
  origin,
}: {
  principal: Principal;
  brandId: string;
  invitationId: string;
  origin: string;
}) {
  const limitHeaders = await countInvitationEmail(principal, brandId);
  const db = await getDb();
  const token = newToken();
  const { invitation, brandName } = await db.transaction(async (tx) => {
    const { brand } = await requireBrandPermission({ principal, brandId, permission: "member.manage", tx });
    const [current] = await tx
      .select()
      .from(brandInvitations)
      .where(and(eq(brandInvitations.id, invitationId), eq(brandInvitations.brandId, brandId)))
      .for("update");
    if (!current) throw notFound("Invitation");
    const status = statusOf(current);
    if (status === "accepted" || status === "revoked") throw unavailable(status);
    const now = new Date();
    const [row] = await tx
      .update(brandInvitations)
      .set({ tokenHash: hashToken(token), expiresAt: expiry(now) })
      .where(eq(brandInvitations.id, invitationId))
      .returning();
    await recordActivity(tx, {
      brandId,
      actorId: principal.userId,
      action: "invitation.resent",
      subjectType: "invitation",
      subjectId: row.id,
      details: { email: row.email, role: row.role },
    });
    return { invitation: row, brandName: brand.name };
  });
  const answer = await deliver({
    invitation,
    token,
    brandName,
    inviter: await inviterOf(principal.userId),
    origin,
  });
  return { invitation: answer, limitHeaders };
}
