import { and, desc, eq, isNull } from "drizzle-orm";
import type { z } from "zod";
import { getDb } from "@/db/client";
import { type ApiKey, apiKeys } from "@/db/schema";
import { notFound } from "@/lib/api/api-error";
import type { apiKeySummary, createApiKeyResponse } from "@/lib/contracts/keys";
import { newId } from "@/lib/ids";
import { announceApiKeyRevoked } from "./api-key-cache";
import { generateApiKey } from "./api-key-format";

const toSummary = (key: ApiKey): z.infer<typeof apiKeySummary> => ({
  keyId: key.id,
  name: key.name,
  hint: key.hint,
  createdAt: key.createdAt.toISOString(),
  lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
});

export async function listApiKeys({ userId }: { userId: string }) {
  const db = await getDb();
  const rows = await db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
    .orderBy(desc(apiKeys.createdAt));
  return { items: rows.map(toSummary) };
}

/** Stores only the key's SHA-256 hash and a hint; the key itself exists in this one response. */
export async function createApiKey({
  userId,
  name,
}: {
  userId: string;
  name: string;
}): Promise<z.infer<typeof createApiKeyResponse>> {
  const db = await getDb();
  const { key, hashedKey, hint } = generateApiKey();
  const [row] = await db
    .insert(apiKeys)
    .values({ id: newId("key"), userId, name, hashedKey, hint })
    .returning();
  return { ...toSummary(row), key };
}

export async function revokeApiKey({ userId, keyId }: { userId: string; keyId: string }) {
  const db = await getDb();
  const revoked = await db
    .update(apiKeys)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiKeys.id, keyId), eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id });
  if (revoked.length === 0) throw notFound("API key");
  await announceApiKeyRevoked(keyId);
}
