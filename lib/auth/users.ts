import { and, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { accounts, users } from "@/db/schema";
import { ApiError } from "@/lib/errors/api-error";
import { newId } from "@/lib/ids";
import { getDummyHash, hashPassword, verifyPassword } from "./password";

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

/** Postgres' unique_violation, whether the driver error arrives bare or wrapped by drizzle. */
export function isUniqueViolation(error: unknown): boolean {
  const candidate = error as { code?: string; cause?: unknown } | undefined;
  return (
    candidate?.code === "23505" || (candidate?.cause !== undefined && isUniqueViolation(candidate.cause))
  );
}

export async function createUser({
  email,
  password,
  name,
}: {
  email: string;
  password: string;
  name?: string;
}) {
  const db = await getDb();
  const user = { id: newId("usr"), email: normalizeEmail(email), name: name?.trim() || null };
  try {
    await db.insert(users).values({ ...user, passwordHash: await hashPassword(password) });
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new ApiError("email_taken", "An account with this email already exists. Sign in instead.");
    }
    throw error;
  }
  return user;
}

/**
 * Checks an email and password. An unknown email still pays for one scrypt hash, so the answer takes
 * the same time whether or not the account exists.
 */
export async function verifyCredentials({ email, password }: { email: string; password: string }) {
  const db = await getDb();
  const [user] = await db
    .select()
    .from(users)
    .where(eq(users.email, normalizeEmail(email)));
  const valid = await verifyPassword(password, user?.passwordHash ?? (await getDummyHash()));
  return valid && user ? user : null;
}

/** The user behind an OAuth identity: linked before, or new. An email owned by a password account is not taken over. */
export async function findOrCreateOAuthUser({
  provider,
  providerAccountId,
  email,
  name,
}: {
  provider: string;
  providerAccountId: string;
  email: string;
  name?: string | null;
}) {
  const db = await getDb();
  const [linked] = await db
    .select({ userId: accounts.userId })
    .from(accounts)
    .where(and(eq(accounts.provider, provider), eq(accounts.providerAccountId, providerAccountId)));
  if (linked) return linked.userId;
  const [existing] = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.email, normalizeEmail(email)));
  if (existing) return null;
  const userId = newId("usr");
  await db.transaction(async (tx) => {
    await tx.insert(users).values({ id: userId, email: normalizeEmail(email), name: name ?? null });
    await tx.insert(accounts).values({ provider, providerAccountId, userId });
  });
  return userId;
}
