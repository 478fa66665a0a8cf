import "server-only";
import { and, eq, type InferSelectModel } from "drizzle-orm";
import type { AnyPgColumn, PgTable } from "drizzle-orm/pg-core";
import { getDb, type Tx } from "@/db/client";
import {
  type Brand,
  brandMembers,
  brands,
  channelConnections,
  posts,
  publications,
  videoJobs,
} from "@/db/schema";
import type { Principal } from "@/lib/auth/authenticate";
import type { BrandRole } from "@/lib/contracts/enums";
import { can, PERMISSIONS, type Permission } from "@/lib/contracts/permissions";
import { ApiError, notFound } from "@/lib/errors/api-error";

export type BrandAccess = { brand: Brand; role: BrandRole };

/** A table whose rows belong to one brand: the brands themselves, or rows with a `brandId`. */
type BrandScopedTable = PgTable & { id: AnyPgColumn } & ({ brandId: AnyPgColumn } | typeof brands);

/** What a missing (or someone else's) row is called in the 404. */
const NAMES = new Map<PgTable, string>([
  [brands, "Brand"],
  [posts, "Post"],
  [videoJobs, "Video job"],
  [channelConnections, "Channel"],
  [publications, "Publication"],
]);

/**
 * Loads the row `id` of `table` from a brand the principal is a member of, with the principal's role there,
 * and checks that the role may do `permission`: one query. Not a member (or no such row): 404, so ids cannot
 * be probed. A member whose role is too weak: 403 `forbidden`, naming the role needed. Inside a transaction,
 * pass it (`forUpdate` locks the row, so concurrent edits are checked against the latest version).
 */
export async function memberScoped<T extends BrandScopedTable>(
  table: T,
  id: string,
  principal: Principal,
  permission: Permission,
  { tx, forUpdate = false }: { tx?: Tx; forUpdate?: boolean } = {},
): Promise<{ row: InferSelectModel<T>; role: BrandRole }> {
  const db = tx ?? (await getDb());
  const brandId = "brandId" in table ? table.brandId : brands.id;
  const query = db
    .select({ row: table as PgTable, role: brandMembers.role })
    .from(table as PgTable)
    .innerJoin(
      brandMembers,
      and(eq(brandMembers.brandId, brandId), eq(brandMembers.userId, principal.userId)),
    )
    .where(eq(table.id, id));
  const [found] = forUpdate ? await query.for("update", { of: table as PgTable }) : await query;
  if (!found) throw notFound(NAMES.get(table) ?? "Resource");
  assertCan(found.role, permission);
  return found as { row: InferSelectModel<T>; role: BrandRole };
}

/** A brand the principal is a member of whose role may do `permission` (memberScoped on brands). */
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
  const { row, role } = await memberScoped(brands, brandId, principal, permission, { tx });
  return { brand: row, role };
}

/** 403 `forbidden` unless `role` may do `permission`. */
export function assertCan(role: BrandRole, permission: Permission) {
  if (can(role, permission)) return;
  const required = PERMISSIONS[permission];
  throw new ApiError("forbidden", `Your role on this brand is ${role}; this needs ${required}.`, {
    details: { role, required },
  });
}
