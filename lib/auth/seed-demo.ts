import { count } from "drizzle-orm";
import type { Db } from "@/db/client";
import { brandMembers, brands, users } from "@/db/schema";
import { DEMO_BRAND, DEMO_LOGIN } from "@/db/seed";
import { hashPassword } from "@/lib/auth/password";
import { newId } from "@/lib/ids";

/**
 * Creates the demo user and brand on an empty database (no users at all). Start-up runs it only when
 * SEED_DEMO is on (the default outside production); `npm run db:seed` runs it on purpose.
 */
export async function seedDemo(db: Db) {
  const [{ value: userCount }] = await db.select({ value: count() }).from(users);
  if (userCount > 0) return { created: false };

  const passwordHash = await hashPassword(DEMO_LOGIN.password);
  await db.transaction(async (tx) => {
    const userId = newId("usr");
    const brandId = newId("brd");
    await tx
      .insert(users)
      .values({ id: userId, email: DEMO_LOGIN.email, name: "Demo Marketer", passwordHash });
    await tx.insert(brands).values({ id: brandId, ...DEMO_BRAND });
    await tx.insert(brandMembers).values({ brandId, userId, role: "owner" });
  });
  return { created: true };
}
