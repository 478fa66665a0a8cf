import "server-only";
import { and, eq, inArray } from "drizzle-orm";
import { getDb } from "@/db/client";
import { brands, type ChannelConnection, channelConnections, publications } from "@/db/schema";
import { recordActivity } from "@/lib/activity/record-activity";
import type { Principal } from "@/lib/auth/authenticate";
import { memberScoped, requireBrandPermission } from "@/lib/brands/brand-access";
import { assertBrandLanguage } from "@/lib/brands/brand-languages";
import type { Permission } from "@/lib/contracts/permissions";
import { log } from "@/lib/log";
import { decryptSecret, encryptSecret } from "@/lib/security/encrypt-secret";
import { removeChannelAvatar } from "./channel-avatar";
import { toChannelView } from "./channel-view";
import { deleteTelegramWebhook } from "./platforms/telegram/webhook";

export async function listChannels({ principal, brandId }: { principal: Principal; brandId: string }) {
  await requireBrandPermission({ principal, brandId, permission: "brand.read" });
  const db = await getDb();
  const rows = await db
    .select()
    .from(channelConnections)
    .where(eq(channelConnections.brandId, brandId))
    .orderBy(channelConnections.createdAt, channelConnections.id);
  return { items: await Promise.all(rows.map(toChannelView)) };
}

/** A connection of a brand the principal belongs to (404 otherwise), with the role checked for `permission`. */
export async function getChannelForPrincipal({
  principal,
  channelId,
  permission,
}: {
  principal: Principal;
  channelId: string;
  permission: Permission;
}): Promise<ChannelConnection> {
  return (await memberScoped(channelConnections, channelId, principal, permission)).row;
}

/** PATCH /api/channels/{channelId}: the language the channel speaks, one of its brand's. */
export async function updateChannelLanguage({
  principal,
  channelId,
  language,
}: {
  principal: Principal;
  channelId: string;
  language: string;
}) {
  const channel = await getChannelForPrincipal({ principal, channelId, permission: "channel.manage" });
  const db = await getDb();
  const [brand] = await db
    .select({ languages: brands.languages })
    .from(brands)
    .where(eq(brands.id, channel.brandId));
  assertBrandLanguage(brand, language, "language");
  const [row] = await db
    .update(channelConnections)
    .set({ language, updatedAt: new Date() })
    .where(eq(channelConnections.id, channelId))
    .returning();
  log.info("channel_language_changed", { channelId, brandId: channel.brandId, language });
  return toChannelView(row);
}

/**
 * DELETE /api/channels/{channelId}: its scheduled publications are canceled, then the row (and token) goes;
 * a Telegram bot's webhook is deleted.
 */
export async function disconnectChannel({
  principal,
  channelId,
}: {
  principal: Principal;
  channelId: string;
}) {
  const channel = await getChannelForPrincipal({ principal, channelId, permission: "channel.manage" });
  const db = await getDb();
  const now = new Date();
  await db.transaction(async (tx) => {
    await tx
      .update(publications)
      .set({ status: "canceled", finishedAt: now, updatedAt: now })
      .where(and(eq(publications.channelId, channelId), inArray(publications.status, ["scheduled", "held"])));
    await tx.delete(channelConnections).where(eq(channelConnections.id, channelId));
    await recordActivity(tx, {
      brandId: channel.brandId,
      actorId: principal.userId,
      action: "channel.disconnected",
      subjectType: "channel",
      subjectId: channelId,
      details: { channel: channel.channel, accountName: channel.accountName },
    });
  });
  await removeChannelAvatar(channel.avatarUrl);
  if (webhookSecretOf(channel)) await deleteTelegramWebhook(channelCredentials(channel).botToken, channelId);
  log.info("channel_disconnected", { channelId, brandId: channel.brandId });
}

/**
 * A Telegram connection's secrets: the bot token, and the `secret_token` Telegram sends with every update
 * when the app receives them through a webhook (absent: the worker polls getUpdates).
 */
export type ChannelCredentials = { botToken: string; webhookSecret?: string };

/** An OAuth channel's tokens; the expiry times are epoch milliseconds. */
export type OAuthCredentials = {
  accessToken: string;
  accessTokenExpiresAt: number;
  refreshToken: string | null;
  refreshTokenExpiresAt: number | null;
};

export function channelCredentials(row: ChannelConnection): ChannelCredentials {
  return JSON.parse(decryptSecret(row.credentials, row.id)) as ChannelCredentials;
}

/** A Telegram connection's webhook secret; undefined when it polls or its credentials no longer decrypt. */
export function webhookSecretOf(row: ChannelConnection): string | undefined {
  try {
    return channelCredentials(row).webhookSecret;
  } catch {
    return undefined;
  }
}

export function oauthCredentials(row: ChannelConnection): OAuthCredentials {
  return JSON.parse(decryptSecret(row.credentials, row.id)) as OAuthCredentials;
}

/** Saves an OAuth channel's new tokens (after a refresh), encrypted like the first ones. */
export async function saveOAuthCredentials(channelId: string, credentials: OAuthCredentials) {
  const db = await getDb();
  await db
    .update(channelConnections)
    .set({ credentials: encryptSecret(JSON.stringify(credentials), channelId), updatedAt: new Date() })
    .where(eq(channelConnections.id, channelId));
}
