import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { and, desc, eq, isNull, sql } from "drizzle-orm";
import { type Db, getDb, type Tx } from "@/db/client";
import { type BrandInvitation, brandInvitations, brandMembers, brands, users } from "@/db/schema";
import { recordActivity } from "@/lib/activity/record-activity";
import { enforceRateLimit } from "@/lib/api/rate-limit";
import type { Principal } from "@/lib/auth/authenticate";
import { isUniqueViolation, normalizeEmail } from "@/lib/auth/users";
import type { BrandRole } from "@/lib/contracts/enums";
import {
  INVITATION_TTL_DAYS,
  type InvitationLinkResponse,
  type InvitationResponse,
} from "@/lib/contracts/teams";
import { ApiError, notFound } from "@/lib/errors/api-error";
import { newId } from "@/lib/ids";
import { requireBrandPermission } from "./brand-access";
import { sendInvitationEmail } from "./invitation-email";

type InvitationStatus = InvitationResponse["status"];

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");
const newToken = () => randomBytes(32).toString("base64url");
const expiry = (now: Date) => new Date(now.getTime() + INVITATION_TTL_DAYS * 86_400_000);

function statusOf(invitation: BrandInvitation, now = new Date()): InvitationStatus {
  if (invitation.acceptedAt) return "accepted";
  if (invitation.revokedAt) return "revoked";
  if (invitation.expiresAt <= now) return "expired";
  return "pending";
}

const toResponse = (invitation: BrandInvitation, invitedBy: string | null): InvitationResponse => ({
  invitationId: invitation.id,
  brandId: invitation.brandId,
  email: invitation.email,
  role: invitation.role,
  status: statusOf(invitation),
  invitedBy,
  createdAt: invitation.createdAt.toISOString(),
  expiresAt: invitation.expiresAt.toISOString(),
});

/** The public link on `origin`, the app's public origin (lib/api/public-origin.ts). */
const linkFor = (origin: string, token: string) => `${origin}/invite/${token}`;

const unavailable = (status: Exclude<InvitationStatus, "pending">) =>
  new ApiError(
    "invitation_unavailable",
    {
      accepted: "This invitation has already been used.",
      expired: "This invitation has expired. Ask the brand's owner to send it again.",
      revoked: "This invitation was revoked by the brand's owner.",
    }[status],
    { details: { reason: status } },
  );

/**
 * Counts one invitation email (sent or re-sent) against the owner's and the brand's hourly limits, once the
 * caller is known to manage the brand (so nobody else spends the brand's budget). Throws 429 `rate_limited`
 * past either; returns the X-RateLimit-* headers of the tighter one.
 */
async function countInvitationEmail(principal: Principal, brandId: string) {
  await requireBrandPermission({ principal, brandId, permission: "member.manage" });
  const owner = await enforceRateLimit({ bucket: "invite_owner", subject: principal.userId });
  const brand = await enforceRateLimit({ bucket: "invite_brand", subject: brandId });
  const remaining = (headers: Record<string, string>) => Number(headers["X-RateLimit-Remaining"]);
  return remaining(owner) <= remaining(brand) ? owner : brand;
}

/** Inside a transaction, pass it: PGlite has one connection, and a query beside the transaction would wait on it. */
async function inviterOf(userId: string, tx?: Tx) {
  const db = tx ?? (await getDb());
  const [user] = await db
    .select({ email: users.email, name: users.name })
    .from(users)
    .where(eq(users.id, userId));
  return user;
}

async function deliver({
  invitation,
  token,
  brandName,
  inviter,
  origin,
}: {
  invitation: BrandInvitation;
  token: string;
  brandName: string;
  inviter: { email: string; name: string | null } | undefined;
  origin: string;
}): Promise<InvitationLinkResponse> {
  const link = linkFor(origin, token);
  const emailed = await sendInvitationEmail({
    to: invitation.email,
    brandName,
    inviter: inviter?.name || inviter?.email || "A Brand Studio user",
    role: invitation.role,
    link,
    expiresAt: invitation.expiresAt,
  });
  return { ...toResponse(invitation, inviter?.email ?? null), link, emailed };
}

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

/** The role `userId` already has in the brand, or null. */
async function memberRole(db: Tx | Db, brandId: string, userId: string) {
  const [member] = await db
    .select({ role: brandMembers.role })
    .from(brandMembers)
    .where(and(eq(brandMembers.brandId, brandId), eq(brandMembers.userId, userId)));
  return member?.role ?? null;
}

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
