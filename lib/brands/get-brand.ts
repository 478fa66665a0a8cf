import "server-only";
import { and, eq, sql } from "drizzle-orm";
import { type Db, getDb, preparedPerDb, type Tx } from "@/db/client";
import { type Brand, brandMembers, brands } from "@/db/schema";
import { notFound } from "@/lib/api/api-error";
import type { Principal } from "@/lib/auth/authenticate";
import type { BrandRole } from "@/lib/contracts/enums";
import type { Permission } from "@/lib/contracts/permissions";
import { assertCan } from "./brand-access";

const brandOfMember = (db: Db | Tx) =>
  db
    .select({ brand: brands, role: brandMembers.role })
    .from(brands)
    .innerJoin(
      brandMembers,
      and(eq(brandMembers.brandId, brands.id), eq(brandMembers.userId, sql.placeholder("userId"))),
    )
    .where(eq(brands.id, sql.placeholder("brandId")));

/** Outside a transaction, the hot path: prepared once per database. */
const preparedBrandOfMember = preparedPerDb((db) => brandOfMember(db).prepare("brand_of_member"));

/**
 * Loads a brand the principal is a member of, whose role may do `permission` (lib/contracts/permissions.ts).
 * Every brand-scoped operation goes through here: a brand that does not exist and one the caller may not
 * see both answer 404, so ids cannot be probed; a member whose role is too weak gets 403 `forbidden`.
 */
export async function getBrandForPrincipal({
  principal,
  brandId,
  permission,
  tx,
}: {
  principal: Principal;
  brandId: string;
  permission: Permission;
  tx?: Tx;
}): Promise<Brand & { role: BrandRole }> {
  const values = { userId: principal.userId, brandId };
  const [row] = tx
    ? await brandOfMember(tx).execute(values)
    : await preparedBrandOfMember(await getDb()).execute(values);
  if (!row) throw notFound("Brand");
  assertCan(row.role, permission);
  return { ...row.brand, role: row.role };
}
