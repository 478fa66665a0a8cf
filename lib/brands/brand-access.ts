import "server-only";
import { and, eq } from "drizzle-orm";
import { getDb, type Tx } from "@/db/client";
import { type Brand, brandMembers, brands } from "@/db/schema";
import type { Principal } from "@/lib/auth/authenticate";
import type { BrandRole } from "@/lib/contracts/enums";
import { can, PERMISSIONS, type Permission } from "@/lib/contracts/permissions";
import { ApiError, notFound } from "@/lib/errors/api-error";

export type BrandAccess = { brand: Brand; role: BrandRole };

/**
 * Loads a brand the principal is a member of and checks that its role may do `permission`. Not a member
 * (or no such brand): 404, so ids cannot be probed. A member whose role is too weak: 403 `forbidden`,
 * naming the role needed.
 */
export async function requireBrandPermission({
  principal,
  brandId,
  permission,
  tx,
}: {
  principal: Principal;
  brandId: string;
  permission: Permission;
  tx?: Tx;
}): Promise<BrandAccess> {
  const db = tx ?? (await getDb());
  const [row] = await db
    .select({ brand: brands, role: brandMembers.role })
    .from(brands)
    .innerJoin(
      brandMembers,
      and(eq(brandMembers.brandId, brands.id), eq(brandMembers.userId, principal.userId)),
    )
    .where(eq(brands.id, brandId));
  if (!row) throw notFound("Brand");
  assertCan(row.role, permission);
  return row;
}

/** 403 `forbidden` unless `role` may do `permission`. */
export function assertCan(role: BrandRole, permission: Permission) {
  if (can(role, permission)) return;
  const required = PERMISSIONS[permission];
  throw new ApiError("forbidden", `Your role on this brand is ${role}; this needs ${required}.`, {
    details: { role, required },
  });
}
