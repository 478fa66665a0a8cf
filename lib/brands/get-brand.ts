import { and, eq } from "drizzle-orm";
import { getDb, type Tx } from "@/db/client";
import { type Brand, brandMembers, brands } from "@/db/schema";
import { notFound } from "@/lib/api/api-error";
import type { Principal } from "@/lib/auth/authenticate";

/**
 * Loads a brand the principal is a member of. Every brand-scoped operation goes through here: a brand
 * that does not exist and one the caller may not see both answer 404, so ids cannot be probed.
 */
export async function getBrandForPrincipal({
  principal,
  brandId,
  tx,
}: {
  principal: Principal;
  brandId: string;
  tx?: Tx;
}): Promise<Brand> {
  const db = tx ?? (await getDb());
  const [row] = await db
    .select({ brand: brands })
    .from(brands)
    .innerJoin(
      brandMembers,
      and(eq(brandMembers.brandId, brands.id), eq(brandMembers.userId, principal.userId)),
    )
    .where(eq(brands.id, brandId));
  if (!row) throw notFound("Brand");
  return row.brand;
}
