import { getDb } from "@/db/client";
import { brandMembers, brands } from "@/db/schema";
import { recordActivity } from "@/lib/activity/record-activity";
import type { Principal } from "@/lib/auth/authenticate";
import type { CreateBrandInput } from "@/lib/contracts/brands";
import { newId } from "@/lib/ids";
import { languagesOnCreate } from "./brand-languages";
import { assertQuotaChangeAllowed } from "./quota-policy";

/** Creates a brand and makes its creator the owner, in one transaction. */
export async function createBrand({ principal, input }: { principal: Principal; input: CreateBrandInput }) {
  // The creator becomes the owner, so only the operator's cap applies.
  assertQuotaChangeAllowed({ role: "owner", value: input.monthlyVideoQuota });
  const db = await getDb();
  return db.transaction(async (tx) => {
    const [brand] = await tx
      .insert(brands)
      .values({ id: newId("brd"), ...input, ...languagesOnCreate(input) })
      .returning();
    await tx.insert(brandMembers).values({ brandId: brand.id, userId: principal.userId, role: "owner" });
    await recordActivity(tx, {
      brandId: brand.id,
      actorId: principal.userId,
      action: "brand.created",
      subjectType: "brand",
      subjectId: brand.id,
      details: { name: brand.name },
    });
    return brand;
  });
}
