import "server-only";
import { and, desc, eq, isNull, sql } from "drizzle-orm";
import { getDb, type Tx } from "@/db/client";
import { brandInvitations, brandMembers, users } from "@/db/schema";
import { recordActivity } from "@/lib/activity/record-activity";
import type { Principal } from "@/lib/auth/authenticate";
import { isUniqueViolation, normalizeEmail } from "@/lib/auth/users";
import { requireBrandPermission } from "@/lib/brands/brand-access";
import type { BrandRole } from "@/lib/contracts/enums";
import type { InvitationLinkResponse } from "@/lib/contracts/teams";
import { ApiError } from "@/lib/errors/api-error";
import { newId } from "@/lib/ids";
import {
  countInvitationEmail,
  deliver,
  expiry,
  hashToken,
  inviterOf,
  newToken,
  toResponse,
} from "./invitation";

/**
 * POST /api/brands/{brandId}/invitations. Only the token's hash is stored; the link is in this answer.
 * An email (any case) that already has an open invitation to the brand gets that invitation re-issued (new
 * token, expiry, role and inviter; the old link stops) instead of a second one: `created` is then false.
 */
export async function createInvitation({
  principal,
  brandId,
  email,
  role,
  origin,
}: {
  principal: Principal;
  brandId: string;
  email: string;
  role: BrandRole;
  origin: string;
}): Promise<{ invitation: InvitationLinkResponse; created: boolean; limitHeaders: Record<string, string> }> {
  const limitHeaders = await countInvitationEmail(principal, brandId);
  const token = newToken();
  const normalized = normalizeEmail(email);
  const issue = async () =>
    (await getDb()).transaction((tx) =>
      issueInvitation(tx, { principal, brandId, email: normalized, role, token }),
    );
  let issued: Awaited<ReturnType<typeof issueInvitation>>;
  try {
    issued = await issue();
  } catch (error) {
    // Two invitations of one email at once: the partial unique index (migration 0013) lets one insert; the
    // other's transaction failed as a whole, and now finds that invitation and re-issues it.
    if (!isUniqueViolation(error)) throw error;
    issued = await issue();
  }
  const { invitation, brandName, created } = issued;
  const answer = await deliver({
    invitation,
    token,
    brandName,
    inviter: await inviterOf(principal.userId),
    origin,
  });
  return { invitation: answer, created, limitHeaders };
}

/** Inside createInvitation's transaction: refuse a member, re-issue an open invitation, or insert one. */
async function issueInvitation(
  tx: Tx,
  {
    principal,
    brandId,
    email,
    role,
    token,
  }: { principal: Principal; brandId: string; email: string; role: BrandRole; token: string },
) {
  const { brand } = await requireBrandPermission({ principal, brandId, permission: "member.manage", tx });
  const [member] = await tx
    .select({ userId: brandMembers.userId })
    .from(brandMembers)
    .innerJoin(users, eq(users.id, brandMembers.userId))
    .where(and(eq(brandMembers.brandId, brandId), eq(sql`lower(${users.email})`, email)));
  if (member) {
    const message = `${email} is already a member of this brand.`;
    throw new ApiError("invalid_request", message, { details: [{ path: "email", message }] });
  }
  const [open] = await tx
    .select({ id: brandInvitations.id })
    .from(brandInvitations)
    .where(
      and(
        eq(brandInvitations.brandId, brandId),
        eq(sql`lower(${brandInvitations.email})`, email),
        isNull(brandInvitations.acceptedAt),
        isNull(brandInvitations.revokedAt),
      ),
    )
    .for("update");
  const now = new Date();
  const issued = { role, tokenHash: hashToken(token), invitedBy: principal.userId, expiresAt: expiry(now) };
  const [row] = open
    ? await tx.update(brandInvitations).set(issued).where(eq(brandInvitations.id, open.id)).returning()
    : await tx
        .insert(brandInvitations)
        .values({ id: newId("inv"), brandId, email, createdAt: now, ...issued })
        .returning();
  await recordActivity(tx, {
    brandId,
    actorId: principal.userId,
    action: open ? "invitation.resent" : "invitation.created",
    subjectType: "invitation",
    subjectId: row.id,
    details: { email: row.email, role },
  });
  return { invitation: row, brandName: brand.name, created: !open };
}

/** GET /api/brands/{brandId}/invitations: pending first, then newest first. */
export async function listInvitations({ principal, brandId }: { principal: Principal; brandId: string }) {
  await requireBrandPermission({ principal, brandId, permission: "member.manage" });
  const db = await getDb();
  const rows = await db
    .select({ invitation: brandInvitations, invitedBy: users.email })
    .from(brandInvitations)
    .leftJoin(users, eq(users.id, brandInvitations.invitedBy))
    .where(eq(brandInvitations.brandId, brandId))
    .orderBy(desc(brandInvitations.createdAt), desc(brandInvitations.id))
    .limit(200);
  const items = rows.map((row) => toResponse(row.invitation, row.invitedBy));
  items.sort((a, b) => Number(b.status === "pending") - Number(a.status === "pending"));
  return { items };
}
