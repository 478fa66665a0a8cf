import "server-only";
import { and, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { channelConnections } from "@/db/schema";
import { recordActivity } from "@/lib/activity/record-activity";
import type { Principal } from "@/lib/auth/authenticate";
import { requireBrandPermission } from "@/lib/brands/brand-access";
import { assertBrandLanguage } from "@/lib/brands/brand-languages";
import type { ConnectChannelInput } from "@/lib/contracts/publishing";
import { ApiError } from "@/lib/errors/api-error";
import { newId } from "@/lib/ids";
import { log } from "@/lib/log";
import { encryptSecret } from "@/lib/security/encrypt-secret";
import { toChannelView } from "./channel-view";
import { webhookSecretOf } from "./channels";
import {
  callTelegram,
  type TelegramChat,
  type TelegramChatMember,
  TelegramError,
  type TelegramUser,
} from "./platforms/telegram/client";
import { deleteTelegramWebhook, setTelegramWebhook } from "./platforms/telegram/webhook";

const CHECK_TIMEOUT_MS = 10_000;

type Check = "token" | "chat" | "admin";

function checkFailed(check: Check | "unreachable", message: string, platformMessage: string | null) {
  return new ApiError("channel_check_failed", message, { details: { check, platformMessage } });
}

/** How long to wait before connecting again after Telegram did not answer, when it named no time itself. */
export const PLATFORM_RETRY_AFTER_SECONDS = 30;

/** One check call; a refusal names the check, an outage is provider_unavailable (nothing was saved). */
async function check<T>(step: Check, token: string, method: string, body: Record<string, unknown>) {
  try {
    return await callTelegram<T>(token, method, body, { timeoutMs: CHECK_TIMEOUT_MS });
  } catch (error) {
    if (!(error instanceof TelegramError)) throw error;
    if (error.kind === "unauthorized" || (error.kind === "rejected" && step === "token")) {
      throw checkFailed(
        "token",
        "Telegram refused the bot token. Copy it again from @BotFather.",
        error.message,
      );
    }
    if (error.kind === "rejected") {
      throw step === "chat"
        ? checkFailed(
            "chat",
            "Telegram cannot find that chat for this bot. Check the @username or id, and add the bot to the channel as an administrator.",
            error.message,
          )
        : checkFailed("admin", "The bot is not an administrator of the channel.", error.message);
    }
    // Telegram's own wait when it named one (429), else a short one: a 503 always says when to try again.
    const seconds = error.retryAfterSeconds ?? PLATFORM_RETRY_AFTER_SECONDS;
    throw new ApiError(
      "provider_unavailable",
      "Telegram did not answer the connection check; nothing was saved. Try again shortly.",
      { headers: { "Retry-After": String(seconds) } },
    );
  }
}

/**
 * POST /api/channels (telegram): getMe (the token works), getChat (the chat exists for this bot),
 * getChatMember (the bot is an administrator that may post). Only then is the connection saved, its token
 * encrypted. Connecting the same chat again replaces the token and clears `needs_reconnect`.
 */
export async function connectChannel({
  principal,
  input,
}: {
  principal: Principal;
  input: ConnectChannelInput;
}) {
  const { brand } = await requireBrandPermission({
    principal,
    brandId: input.brandId,
    permission: "channel.manage",
  });
  if (input.language) assertBrandLanguage(brand, input.language, "language");
  const token = input.botToken;
  const me = await check<TelegramUser>("token", token, "getMe", {});
  const chat = await check<TelegramChat>("chat", token, "getChat", { chat_id: input.chatId });
  const member = await check<TelegramChatMember>("admin", token, "getChatMember", {
    chat_id: chat.id,
    user_id: me.id,
  });
  const isAdmin = member.status === "creator" || member.status === "administrator";
  const canPost = member.status === "creator" || chat.type !== "channel" || member.can_post_messages === true;
  if (!isAdmin || !canPost) {
    throw checkFailed(
      "admin",
      isAdmin
        ? "The bot is an administrator of the channel but may not post messages. Turn on “Post messages” for it."
        : `The bot @${me.username ?? me.first_name} is not an administrator of the channel. Add it as an administrator that may post messages.`,
      null,
    );
  }

  const db = await getDb();
  const externalId = String(chat.id);
  const now = new Date();
  const [existing] = await db
    .select()
    .from(channelConnections)
    .where(
      and(
        eq(channelConnections.brandId, brand.id),
        eq(channelConnections.channel, "telegram"),
        eq(channelConnections.externalId, externalId),
      ),
    );
  const id = existing?.id ?? newId("chn");
  // Reaction counts come through a webhook when Telegram can reach the app; a reconnect that polls now
  // removes the webhook an earlier connect set (Telegram refuses getUpdates while one is set).
  const webhookSecret = await setTelegramWebhook(token, id);
  if (!webhookSecret && existing && webhookSecretOf(existing)) await deleteTelegramWebhook(token, id);
  const fields = {
    accountName: chat.title ?? chat.username ?? externalId,
    accountHandle: chat.username ? `@${chat.username}` : null,
    avatarUrl: null,
    credentials: encryptSecret(
      JSON.stringify({ botToken: token, ...(webhookSecret ? { webhookSecret } : {}) }),
      id,
    ),
    status: "active" as const,
    statusMessage: null,
    updatedAt: now,
    connectedBy: principal.userId,
    // A reconnect keeps the channel's language unless one is sent.
    ...(input.language ? { language: input.language } : {}),
  };
  const row = await db.transaction(async (tx) => {
    const [saved] = existing
      ? await tx.update(channelConnections).set(fields).where(eq(channelConnections.id, id)).returning()
      : await tx
          .insert(channelConnections)
          .values({
            id,
            brandId: brand.id,
            channel: "telegram",
            externalId,
            createdBy: principal.userId,
            createdAt: now,
            language: brand.language,
            ...fields,
          })
          .returning();
    await recordActivity(tx, {
      brandId: brand.id,
      actorId: principal.userId,
      action: "channel.connected",
      subjectType: "channel",
      subjectId: id,
      details: { channel: "telegram", accountName: saved.accountName, reconnected: !!existing },
    });
    return saved;
  });
  log.info("channel_connected", {
    channelId: id,
    brandId: brand.id,
    channel: "telegram",
    reconnected: !!existing,
  });
  return toChannelView(row);
}
