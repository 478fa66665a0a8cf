import "server-only";
import { and, eq, inArray, sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { apiKeys, brandMembers, users } from "@/db/schema";
import { ApiError, notFound } from "@/lib/api/api-error";
import { forgetApiKey } from "./api-key-cache";
import type { Principal } from "./authenticate";
import { membershipChanged } from "./membership-events";
import { verifyPassword } from "./password";

/**
 * DELETE /api/users/me. Refused while the account is the last owner of a brand (promote someone, or the
 * brand would be left with nobody who can manage it). The delete cascades to its memberships and API keys;
 * triggers tell every process (NOTIFY), and this one forgets them at once, so its keys and access tokens
 * stop everywhere with the transaction.
 */
export async function deleteAccount({ principal, password }: { principal: Principal; password: string }) {
  const db = await getDb();
  const keyIds = await db.transaction(async (tx) => {
    const [user] = await tx.select().from(users).where(eq(users.id, principal.userId)).for("update");
    if (!user) throw notFound("User");
    if (!user.passwordHash || !(await verifyPassword(password, user.passwordHash))) {
      const message = "The password is not right.";
      throw new ApiError("invalid_request", message, { details: [{ path: "password", message }] });
    }
    const owned = tx
      .select({ brandId: brandMembers.brandId })
      .from(brandMembers)
      .where(and(eq(brandMembers.userId, user.id), eq(brandMembers.role, "owner")));
    const [soleOwnerOf] = await tx
      .select({ brandId: brandMembers.brandId })
      .from(brandMembers)
      .where(and(inArray(brandMembers.brandId, owned), eq(brandMembers.role, "owner")))
      .groupBy(brandMembers.brandId)
      .having(sql`count(*) = 1`)
      .limit(1);
    if (soleOwnerOf) {
      throw new ApiError(
        "last_owner",
        "You are the last owner of a brand: make another member its owner first.",
        { details: { brandId: soleOwnerOf.brandId } },
      );
    }
    const keys = await tx.select({ id: apiKeys.id }).from(apiKeys).where(eq(apiKeys.userId, user.id));
    await tx.delete(users).where(eq(users.id, user.id));
    return keys.map((key) => key.id);
  });
  for (const keyId of keyIds) forgetApiKey(keyId);
  membershipChanged(principal.userId);
}
