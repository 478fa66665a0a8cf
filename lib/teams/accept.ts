import "server-only";
import { eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { brandInvitations, brandMembers } from "@/db/schema";
import { recordActivity } from "@/lib/activity/record-activity";
import type { Principal } from "@/lib/auth/authenticate";
import { ApiError, notFound } from "@/lib/errors/api-error";
import { hashToken, memberRole, statusOf, unavailable } from "./invitation";

/**
 * POST /api/invitations/{token}/accept: the signed-in user joins with the invitation's role, and the link is
 * used up. A member already (an owner opening someone else's link) gets 409 `already_member` and the
 * invitation stays open for the person it was sent to.
 */
export async function acceptInvitation({ principal, token }: { principal: Principal; token: string }) {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const [invitation] = await tx
      .select()
      .from(brandInvitations)
      .where(eq(brandInvitations.tokenHash, hashToken(token)))
      .for("update");
    if (!invitation) throw notFound("Invitation");
    const status = statusOf(invitation);
    if (status !== "pending") throw unavailable(status);
    const role = await memberRole(tx, invitation.brandId, principal.userId);
    if (role) {
      throw new ApiError(
        "already_member",
        `You are already a member of this brand (${role}). The invitation stays open for ${invitation.email}.`,
        { details: { brandId: invitation.brandId, role } },
      );
    }
    await tx
      .update(brandInvitations)
      .set({ acceptedAt: new Date(), acceptedBy: principal.userId })
      .where(eq(brandInvitations.id, invitation.id));
    await tx
      .insert(brandMembers)
      .values({ brandId: invitation.brandId, userId: principal.userId, role: invitation.role });
    await recordActivity(tx, {
      brandId: invitation.brandId,
      actorId: principal.userId,
      action: "member.joined",
      subjectType: "member",
      subjectId: principal.userId,
      details: { role: invitation.role, invitationId: invitation.id },
    });
    return { brandId: invitation.brandId, role: invitation.role };
  });
}
