import { and, eq, isNull, lt, or } from "drizzle-orm";
import { getDb } from "@/db/client";
import { apiKeys, users } from "@/db/schema";
import { verifyAccessToken } from "./access-token";
import { hashApiKey, looksLikeApiKey } from "./api-key-format";

export type Principal = { userId: string; credential: "access_token" | "api_key"; apiKeyId?: string };

const LAST_USED_RESOLUTION_MS = 60_000;

async function authenticateApiKey(key: string): Promise<Principal | null> {
  const db = await getDb();
  const [row] = await db
    .select({ id: apiKeys.id, userId: apiKeys.userId, lastUsedAt: apiKeys.lastUsedAt })
    .from(apiKeys)
    .where(and(eq(apiKeys.hashedKey, hashApiKey(key)), isNull(apiKeys.revokedAt)));
  if (!row) return null;
  const now = new Date();
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS) {
    // At most one write a minute per key, and only if nobody else wrote it meanwhile.
    const staleBefore = new Date(now.getTime() - LAST_USED_RESOLUTION_MS);
    await db
      .update(apiKeys)
      .set({ lastUsedAt: now })
      .where(
        and(eq(apiKeys.id, row.id), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, staleBefore))),
      );
  }
  return { userId: row.userId, credential: "api_key", apiKeyId: row.id };
}

async function authenticateAccessToken(token: string): Promise<Principal | null> {
  const userId = await verifyAccessToken(token);
  if (!userId) return null;
  const db = await getDb();
  const [user] = await db.select({ id: users.id }).from(users).where(eq(users.id, userId));
  return user ? { userId: user.id, credential: "access_token" } : null;
}

/** Resolves `Authorization: Bearer <access token | API key>` to a principal, or null. */
export async function authenticate(authorization: string | null): Promise<Principal | null> {
  const match = authorization?.match(/^Bearer\s+(\S+)\s*$/i);
  if (!match) return null;
  const credential = match[1];
  return looksLikeApiKey(credential) ? authenticateApiKey(credential) : authenticateAccessToken(credential);
}
