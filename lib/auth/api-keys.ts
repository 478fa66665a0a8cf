import { and, desc, eq, isNull } from "drizzle-orm";
import type { z } from "zod";
import { getDb } from "@/db/client";
import { type ApiKey, apiKeys } from "@/db/schema";
import { recordMemberActivity } from "@/lib/activity/record-activity";
import type { apiKeySummary, createApiKeyResponse } from "@/lib/contracts/keys";
import { notFound } from "@/lib/errors/api-error";
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
  const row = await db.transaction(async (tx) => {
    const [created] = await tx
      .insert(apiKeys)
      .values({ id: newId("key"), userId, name, hashedKey, hint })
      .returning();
    await recordMemberActivity(tx, {
      actorId: userId,
      action: "api_key.created",
      subjectType: "api_key",
      subjectId: created.id,
      details: { name: created.name, hint: created.hint },
    });
    return created;
  });
  return { ...toSummary(row), key };
}

export async function revokeApiKey({ userId, keyId }: { userId: string; keyId: string }) {
  const db = await getDb();
  await db.transaction(async (tx) => {
    const [revoked] = await tx
      .update(apiKeys)
      .set({ revokedAt: new Date() })
      .where(and(eq(apiKeys.id, keyId), eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
      .returning({ id: apiKeys.id, name: apiKeys.name, hint: apiKeys.hint });
    if (!revoked) throw notFound("API key");
    await recordMemberActivity(tx, {
      actorId: userId,
      action: "api_key.revoked",
      subjectType: "api_key",
      subjectId: revoked.id,
      details: { name: revoked.name, hint: revoked.hint },
    });
  });
  await announceApiKeyRevoked(keyId);
}
