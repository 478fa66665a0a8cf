import "server-only";
import { eq, inArray } from "drizzle-orm";
import { getDb } from "@/db/client";
import { apiKeys, brandMembers, users } from "@/db/schema";
import { forgetApiKey } from "@/lib/auth/api-key-cache";
import type { Principal } from "@/lib/auth/authenticate";
import { membershipChanged } from "@/lib/auth/membership-events";
import { verifyPassword } from "@/lib/auth/password";
import { assertSignInAllowed, recordSignInFailure, recordSignInSuccess } from "@/lib/auth/sign-in-throttle";
import { normalizeEmail } from "@/lib/auth/users";
import { ApiError, notFound } from "@/lib/errors/api-error";
import { disconnectPersonalChannels } from "@/lib/publishing/personal-channels";

type Confirmation = { password?: string; confirmEmail?: string };

/**
 * The account's owner confirms: with its password, or (an account made by OAuth sign-in, which has none) by
 * typing its email. Each other answer counts as a failed sign-in.
 */
async function confirmed(user: { email: string; passwordHash: string | null }, body: Confirmation) {
  if (user.passwordHash) {
    if (body.password === undefined) {
      throw new ApiError("invalid_request", "Send the account's password to confirm.", {
        details: [{ path: "password", message: "Enter your password." }],
      });
    }
    return verifyPassword(body.password, user.passwordHash);
  }
  if (body.confirmEmail === undefined) {
    throw new ApiError("invalid_request", "This account has no password: type its email to confirm.", {
      details: [{ path: "confirmEmail", message: "Type the account's email." }],
    });
  }
  return normalizeEmail(body.confirmEmail) === normalizeEmail(user.email);
}

/**
 * DELETE /api/users/me, from a signed-in session only (an API key answers 403 `session_required`: a leaked
 * script key must not end the account, nor test passwords). Throttled like sign-in, per account and per IP.
 * Refused while the account is the last owner of a brand: the memberships of each of its brands are locked
 * (as member removal locks them), so two last owners deleting at once cannot both go. The delete cascades to
 * its memberships and API keys; its personal channel connections leave with it; triggers tell every process
 * (NOTIFY), and this one forgets them at once, so its keys and access tokens stop everywhere with the
 * transaction.
 */
export async function deleteAccount({
  principal,
  body,
  ip,
}: {
  principal: Principal;
  body: Confirmation;
  ip: string;
}) {
  if (principal.credential === "api_key") {
    throw new ApiError(
      "session_required",
      "An API key cannot delete its account: sign in to the app and delete it from there.",
    );
  }
  const db = await getDb();
  const [user] = await db.select().from(users).where(eq(users.id, principal.userId));
  if (!user) throw notFound("User");
  const attempt = { email: user.email, ip };
  await assertSignInAllowed(attempt);
  if (!(await confirmed(user, body))) {
    await recordSignInFailure(attempt);
    const [path, message] = user.passwordHash
      ? ["password", "The password is not right."]
      : ["confirmEmail", "That is not this account's email."];
    throw new ApiError("invalid_request", message, { details: [{ path, message }] });
  }
  const { keyIds, afterCommit } = await db.transaction(async (tx) => {
    const [locked] = await tx.select().from(users).where(eq(users.id, user.id)).for("update");
    if (!locked) throw notFound("User");
    // Every membership of every brand the account is in, in one order (no deadlock between two deletes).
    const mine = tx
      .select({ brandId: brandMembers.brandId })
      .from(brandMembers)
      .where(eq(brandMembers.userId, user.id));
    const members = await tx
      .select({ brandId: brandMembers.brandId, userId: brandMembers.userId, role: brandMembers.role })
      .from(brandMembers)
      .where(inArray(brandMembers.brandId, mine))
      .orderBy(brandMembers.brandId, brandMembers.userId)
      .for("update");
    const brandIds = [...new Set(members.map((member) => member.brandId))];
    const soleOwnerOf = brandIds.find((brandId) => {
      const owners = members.filter((m) => m.brandId === brandId && m.role === "owner");
      return owners.length === 1 && owners[0].userId === user.id;
    });
    if (soleOwnerOf) {
      throw new ApiError(
        "last_owner",
        "You are the last owner of a brand: make another member its owner first.",
        { details: { brandId: soleOwnerOf } },
      );
    }
    const afterCommit = await disconnectPersonalChannels(tx, {
      userId: user.id,
      email: user.email,
      brandIds,
      actorId: user.id,
      reason: "account_deleted",
    });
    const keys = await tx.select({ id: apiKeys.id }).from(apiKeys).where(eq(apiKeys.userId, user.id));
    await tx.delete(users).where(eq(users.id, user.id));
    return { keyIds: keys.map((key) => key.id), afterCommit };
  });
  for (const keyId of keyIds) forgetApiKey(keyId);
  membershipChanged(principal.userId);
  await recordSignInSuccess(attempt);
  await afterCommit();
}
