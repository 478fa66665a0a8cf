import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { type Db, getDb, type Tx } from "@/db/client";
import { type BrandInvitation, brandMembers, users } from "@/db/schema";
import { enforceRateLimit } from "@/lib/api/rate-limit";
import type { Principal } from "@/lib/auth/authenticate";
import { requireBrandPermission } from "@/lib/brands/brand-access";
import {
  INVITATION_TTL_DAYS,
  type InvitationLinkResponse,
  type InvitationResponse,
} from "@/lib/contracts/teams";
import { ApiError } from "@/lib/errors/api-error";
import { sendInvitationEmail } from "./invitation-email";

export type InvitationStatus = InvitationResponse["status"];

export const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");
export const newToken = () => randomBytes(32).toString("base64url");
export const expiry = (now: Date) => new Date(now.getTime() + INVITATION_TTL_DAYS * 86_400_000);

export function statusOf(invitation: BrandInvitation, now = new Date()): InvitationStatus {
  if (invitation.acceptedAt) return "accepted";
  if (invitation.revokedAt) return "revoked";
  if (invitation.expiresAt <= now) return "expired";
  return "pending";
}

export const toResponse = (invitation: BrandInvitation, invitedBy: string | null): InvitationResponse => ({
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
export const linkFor = (origin: string, token: string) => `${origin}/invite/${token}`;

export const unavailable = (status: Exclude<InvitationStatus, "pending">) =>
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
export async function countInvitationEmail(principal: Principal, brandId: string) {
  await requireBrandPermission({ principal, brandId, permission: "member.manage" });
  const owner = await enforceRateLimit({ bucket: "invite_owner", subject: principal.userId });
  const brand = await enforceRateLimit({ bucket: "invite_brand", subject: brandId });
  const remaining = (headers: Record<string, string>) => Number(headers["X-RateLimit-Remaining"]);
  return remaining(owner) <= remaining(brand) ? owner : brand;
}

/** Inside a transaction, pass it: PGlite has one connection, and a query beside the transaction would wait on it. */
export async function inviterOf(userId: string, tx?: Tx) {
  const db = tx ?? (await getDb());
  const [user] = await db
    .select({ email: users.email, name: users.name })
    .from(users)
    .where(eq(users.id, userId));
  return user;
}

export async function deliver({
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

/** The role `userId` already has in the brand, or null. */
export async function memberRole(db: Tx | Db, brandId: string, userId: string) {
  const [member] = await db
    .select({ role: brandMembers.role })
    .from(brandMembers)
    .where(and(eq(brandMembers.brandId, brandId), eq(brandMembers.userId, userId)));
  return member?.role ?? null;
}
