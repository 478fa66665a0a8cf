import "server-only";
import { eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { brands } from "@/db/schema";
import { recordActivity } from "@/lib/activity/record-activity";
import type { Principal } from "@/lib/auth/authenticate";
import { brandChanged } from "@/lib/auth/membership-events";
import type { UpdateBrandInput } from "@/lib/contracts/brands";
import { requireBrandPermission } from "./brand-access";
import { languagesOnUpdate } from "./brand-languages";
import { assertQuotaChangeAllowed } from "./quota-policy";

/** Changes the fields given and leaves the others as they are: the brand and its kit are the owner's (DESIGN §10). */
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
  const updated = await db.transaction(async (tx) => {
    const { role } = await requireBrandPermission({ principal, brandId, permission: "brand.update", tx });
    if (input.monthlyVideoQuota !== undefined) {
      assertQuotaChangeAllowed({ role, value: input.monthlyVideoQuota });
    }
    const current =
      input.language && !input.languages
        ? (await tx.select({ languages: brands.languages }).from(brands).where(eq(brands.id, brandId)))[0]
        : undefined;
    const [brand] = await tx
      .update(brands)
      .set({ ...input, ...languagesOnUpdate(input, current ?? { languages: [] }), updatedAt: new Date() })
      .where(eq(brands.id, brandId))
      .returning();
    await recordActivity(tx, {
      brandId,
      actorId: principal.userId,
      action: "brand.updated",
      subjectType: "brand",
      subjectId: brandId,
      details: { fields: Object.keys(input) },
    });
    return { brand, role };
  });
  brandChanged(brandId);
  return updated;
}
