import "server-only";
import { eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { brandInvitations, brands, users } from "@/db/schema";
import type { Principal } from "@/lib/auth/authenticate";
import { notFound } from "@/lib/errors/api-error";
import { hashToken, memberRole, statusOf, unavailable } from "./invitation";

/**
 * GET /api/invitations/{token}: what the link offers, or why it no longer works. A signed-in caller who is
 * already a member of the brand reads their role in `yourRole` (the page then offers no Join).
 */
export async function previewInvitation(token: string, principal?: Principal | null) {
  const db = await getDb();
  const [row] = await db
    .select({
      invitation: brandInvitations,
      brandName: brands.name,
      inviterName: users.name,
      inviterEmail: users.email,
    })
    .from(brandInvitations)
    .innerJoin(brands, eq(brands.id, brandInvitations.brandId))
    .leftJoin(users, eq(users.id, brandInvitations.invitedBy))
    .where(eq(brandInvitations.tokenHash, hashToken(token)));
  if (!row) throw notFound("Invitation");
  const status = statusOf(row.invitation);
  if (status !== "pending") throw unavailable(status);
  return {
    brandId: row.invitation.brandId,
    brandName: row.brandName,
    email: row.invitation.email,
    role: row.invitation.role,
    invitedBy: row.inviterName || row.inviterEmail || null,
    expiresAt: row.invitation.expiresAt.toISOString(),
    yourRole: principal ? await memberRole(db, row.invitation.brandId, principal.userId) : null,
  };
}
