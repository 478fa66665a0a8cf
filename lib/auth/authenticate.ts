import { and, eq, isNull, lt, or } from "drizzle-orm";
import { getDb } from "@/db/client";
import { apiKeys, users } from "@/db/schema";
import { verifyAccessToken } from "./access-token";
import { apiKeyCacheGeneration, cachedApiKey, rememberApiKey } from "./api-key-cache";
import { hashApiKey, looksLikeApiKey } from "./api-key-format";

export type Principal = { userId: string; credential: "access_token" | "api_key"; apiKeyId?: string };

const LAST_USED_RESOLUTION_MS = 60_000;

async function authenticateApiKey(key: string): Promise<Principal | null> {
  const hashedKey = hashApiKey(key);
  const cached = cachedApiKey(hashedKey);
  if (cached) {
    if (cached.lastUsedAt === null || Date.now() - cached.lastUsedAt >= LAST_USED_RESOLUTION_MS) {
      cached.lastUsedAt = Date.now();
      await touchLastUsed(cached.keyId);
    }
    return { userId: cached.userId, credential: "api_key", apiKeyId: cached.keyId };
  }
  const generation = apiKeyCacheGeneration();
  const db = await getDb();
  const [row] = await db
    .select({ id: apiKeys.id, userId: apiKeys.userId, lastUsedAt: apiKeys.lastUsedAt })
    .from(apiKeys)
    .where(and(eq(apiKeys.hashedKey, hashedKey), isNull(apiKeys.revokedAt)));
  if (!row) return null;
  let lastUsedAt = row.lastUsedAt?.getTime() ?? null;
  if (lastUsedAt === null || Date.now() - lastUsedAt >= LAST_USED_RESOLUTION_MS) {
    lastUsedAt = Date.now();
    await touchLastUsed(row.id);
  }
  rememberApiKey(hashedKey, { keyId: row.id, userId: row.userId, lastUsedAt }, generation);
  return { userId: row.userId, credential: "api_key", apiKeyId: row.id };
}

/** At most one write a minute per key, and only if nobody else wrote it meanwhile. */
async function touchLastUsed(keyId: string) {
  const db = await getDb();
  const now = new Date();
  const staleBefore = new Date(now.getTime() - LAST_USED_RESOLUTION_MS);
  await db
    .update(apiKeys)
    .set({ lastUsedAt: now })
    .where(and(eq(apiKeys.id, keyId), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, staleBefore))));
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
