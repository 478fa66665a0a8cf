import "server-only";
import { and, eq, sql } from "drizzle-orm";
import { type Db, getDb, preparedPerDb, type Tx } from "@/db/client";
import { type Brand, brandMembers, brands } from "@/db/schema";
import type { Principal } from "@/lib/auth/authenticate";
import type { BrandRole } from "@/lib/contracts/enums";
import type { Permission } from "@/lib/contracts/permissions";
import { notFound } from "@/lib/errors/api-error";
import { assertCan } from "./brand-access";
import { brandCacheGeneration, cachedBrand, type MemberBrand, rememberBrand } from "./brand-cache";

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
 * `cached`: from the per-process brand cache (lib/brands/brand-cache.ts) when it has the pair, for the hot
 * path (Generate post); the role is checked against `permission` either way.
 */
export async function getBrandForPrincipal({
  principal,
  brandId,
  permission,
  tx,
  cached = false,
}: {
  principal: Principal;
  brandId: string;
  permission: Permission;
  tx?: Tx;
  cached?: boolean;
}): Promise<Brand & { role: BrandRole }> {
  const row = cached
    ? await readThroughCache(principal.userId, brandId)
    : await readBrand(principal.userId, brandId, tx);
  if (!row) throw notFound("Brand");
  assertCan(row.role, permission);
  return { ...row.brand, role: row.role };
}

async function readBrand(userId: string, brandId: string, tx?: Tx): Promise<MemberBrand | undefined> {
  const values = { userId, brandId };
  const [row] = tx
    ? await brandOfMember(tx).execute(values)
    : await preparedBrandOfMember(await getDb()).execute(values);
  return row;
}

async function readThroughCache(userId: string, brandId: string) {
  const hit = cachedBrand(userId, brandId);
  if (hit) return hit;
  const generation = brandCacheGeneration();
  const row = await readBrand(userId, brandId);
  if (row) rememberBrand(userId, row, generation);
  return row;
}
