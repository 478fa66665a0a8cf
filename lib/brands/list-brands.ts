import { asc, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { brandMembers, brands } from "@/db/schema";
import type { Principal } from "@/lib/auth/authenticate";

/** The brands the principal is a member of, by name, each with the principal's role. */
export async function listBrands({ principal }: { principal: Principal }) {
  const db = await getDb();
  const rows = await db
    .select({ brand: brands, role: brandMembers.role })
    .from(brands)
    .innerJoin(brandMembers, eq(brandMembers.brandId, brands.id))
    .where(eq(brandMembers.userId, principal.userId))
    .orderBy(asc(brands.name), asc(brands.id));
  return rows;
}
