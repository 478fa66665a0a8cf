import "server-only";
import { and, asc, eq } from "drizzle-orm";
import { getDb, type Tx } from "@/db/client";
import { brandMembers, users } from "@/db/schema";
import { recordActivity } from "@/lib/activity/record-activity";
import type { Principal } from "@/lib/auth/authenticate";
import { membershipChanged } from "@/lib/auth/membership-events";
import { requireBrandPermission } from "@/lib/brands/brand-access";
import type { BrandRole } from "@/lib/contracts/enums";
import { roleRank } from "@/lib/contracts/permissions";
import type { MemberResponse } from "@/lib/contracts/teams";
import { ApiError, notFound } from "@/lib/errors/api-error";
import { disconnectPersonalChannels } from "@/lib/publishing/personal-channels";

const memberColumns = {
  userId: brandMembers.userId,
  email: users.email,
  name: users.name,
  role: brandMembers.role,
  joinedAt: brandMembers.createdAt,
};

type MemberRow = { userId: string; email: string; name: string | null; role: BrandRole; joinedAt: Date };

const toMember = (row: MemberRow): MemberResponse => ({ ...row, joinedAt: row.joinedAt.toISOString() });

/** GET /api/brands/{brandId}/members: owners first, then editors and viewers, each by email. */
export async function listMembers({ principal, brandId }: { principal: Principal; brandId: string }) {
  await requireBrandPermission({ principal, brandId, permission: "brand.read" });
  const db = await getDb();
  const rows = await db
    .select(memberColumns)
    .from(brandMembers)
    .innerJoin(users, eq(users.id, brandMembers.userId))
    .where(eq(brandMembers.brandId, brandId))
    .orderBy(asc(users.email));
  rows.sort((a, b) => roleRank(b.role) - roleRank(a.role));
  return { items: rows.map(toMember) };
}

/**
 * Locks every membership of the brand (so two owners cannot demote each other at once and leave none), and
 * returns the target member and the number of owners.
 */
async function lockMembers(tx: Tx, brandId: string, userId: string) {
  const rows = await tx
    .select(memberColumns)
    .from(brandMembers)
    .innerJoin(users, eq(users.id, brandMembers.userId))
    .where(eq(brandMembers.brandId, brandId))
    .for("update", { of: brandMembers });
  const target = rows.find((row) => row.userId === userId);
  if (!target) throw notFound("Member");
  return { target, owners: rows.filter((row) => row.role === "owner").length };
}

const lastOwner = (brandId: string) =>
  new ApiError("last_owner", "A brand always keeps at least one owner: make another member an owner first.", {
    details: { brandId },
  });

/** PATCH /api/brands/{brandId}/members/{userId}. */
export async function updateMemberRole({
  principal,
  brandId,
  userId,
  role,
}: {
  principal: Principal;
  brandId: string;
  userId: string;
  role: BrandRole;
}): Promise<MemberResponse> {
  const db = await getDb();
  const member = await db.transaction(async (tx) => {
    await requireBrandPermission({ principal, brandId, permission: "member.manage", tx });
    const { target, owners } = await lockMembers(tx, brandId, userId);
    if (target.role === role) return target;
    if (target.role === "owner" && owners <= 1) throw lastOwner(brandId);
    await tx
      .update(brandMembers)
      .set({ role })
      .where(and(eq(brandMembers.brandId, brandId), eq(brandMembers.userId, userId)));
    await recordActivity(tx, {
      brandId,
      actorId: principal.userId,
      action: "member.role_changed",
      subjectType: "member",
      subjectId: userId,
      details: { email: target.email, from: target.role, to: role },
    });
    return { ...target, role };
  });
  membershipChanged(userId);
  return toMember(member);
}

/**
 * DELETE /api/brands/{brandId}/members/{userId}: their next request, on any process, answers 404. Their
 * personal channel connections (LinkedIn member, Instagram) leave with them; page connections stay.
 */
export async function removeMember({
  principal,
  brandId,
  userId,
}: {
  principal: Principal;
  brandId: string;
  userId: string;
}) {
  const db = await getDb();
  const afterCommit = await db.transaction(async (tx) => {
    await requireBrandPermission({ principal, brandId, permission: "member.manage", tx });
    const { target, owners } = await lockMembers(tx, brandId, userId);
    if (target.role === "owner" && owners <= 1) throw lastOwner(brandId);
    await tx
      .delete(brandMembers)
      .where(and(eq(brandMembers.brandId, brandId), eq(brandMembers.userId, userId)));
    await recordActivity(tx, {
      brandId,
      actorId: principal.userId,
      action: "member.removed",
      subjectType: "member",
      subjectId: userId,
      details: { email: target.email, role: target.role },
    });
    return disconnectPersonalChannels(tx, {
      userId,
      email: target.email,
      brandIds: [brandId],
      actorId: principal.userId,
      reason: "member_removed",
    });
  });
  membershipChanged(userId);
  await afterCommit();
}
