import { and, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { brandMembers, brands } from "@/db/schema";
import type { Principal } from "@/lib/auth/authenticate";
import type { UpdateBrandInput } from "@/lib/contracts/brands";
import { getBrandForPrincipal } from "./get-brand";
import { assertQuotaChangeAllowed } from "./quota-policy";

/** Changes the fields given and leaves the others as they are. */
export async function updateBrand({
  principal,
  brandId,
  input,
}: {
  principal: Principal;
  brandId: string;
  input: UpdateBrandInput;
}) {
  const db = await getDb();
  return db.transaction(async (tx) => {
    await getBrandForPrincipal({ principal, brandId, tx });
    if (input.monthlyVideoQuota !== undefined) {
      const [member] = await tx
        .select({ role: brandMembers.role })
        .from(brandMembers)
        .where(and(eq(brandMembers.brandId, brandId), eq(brandMembers.userId, principal.userId)));
      assertQuotaChangeAllowed({ role: member?.role ?? "", value: input.monthlyVideoQuota });
    }
    const [brand] = await tx
      .update(brands)
      .set({ ...input, updatedAt: new Date() })
      .where(eq(brands.id, brandId))
      .returning();
    return brand;
  });
}
