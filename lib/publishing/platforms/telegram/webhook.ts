import "server-only";
import { randomBytes } from "node:crypto";
import { getEnv } from "@/lib/config";
import { log } from "@/lib/log";
import { isPublicUrl } from "@/lib/security/ssrf";
import { callTelegram, TelegramError } from "./client";

/**
 * Telegram reaction counts through a webhook (https://core.telegram.org/bots/api#setwebhook) when Telegram
 * can reach this app: connecting a channel sets the bot's webhook to this connection's path with a random
 * `secret_token` (kept encrypted with the bot token), which Telegram sends back in
 * `X-Telegram-Bot-Api-Secret-Token` (lib/analytics/telegram-webhook.ts checks it). Without a reachable URL
 * the metrics worker polls `getUpdates` instead: Telegram refuses getUpdates while a webhook is set, so a
 * connection uses one or the other.
 */

/** The ports Telegram delivers webhooks to. */
const WEBHOOK_PORTS = new Set(["443", "80", "88", "8443"]);

/**
 * Where Telegram can POST updates: TELEGRAM_WEBHOOK_BASE_URL when set, else APP_URL when it is a public
 * https URL on a port Telegram uses; null means the app polls.
 */
export function telegramWebhookBase(): string | null {
  const env = getEnv();
  if (env.TELEGRAM_WEBHOOK_BASE_URL) return env.TELEGRAM_WEBHOOK_BASE_URL;
  if (!env.APP_URL || !isPublicUrl(env.APP_URL)) return null;
  const url = new URL(env.APP_URL);
  return url.protocol === "https:" && WEBHOOK_PORTS.has(url.port || "443") ? env.APP_URL : null;
}

export const telegramWebhookPath = (channelId: string) =>
  `/api/webhooks/telegram/${encodeURIComponent(channelId)}`;

/**
 * Points the bot's webhook at this connection with a fresh secret, asking for reaction counts. Answers the
 * secret to store, or null when the app polls (no reachable URL, or Telegram refused the webhook: logged).
 */
export async function setTelegramWebhook(botToken: string, channelId: string): Promise<string | null> {
  const base = telegramWebhookBase();
  if (!base) return null;
  const secret = randomBytes(32).toString("base64url");
  try {
    await callTelegram(botToken, "setWebhook", {
      url: `${base}${telegramWebhookPath(channelId)}`,
      secret_token: secret,
      allowed_updates: ["message_reaction_count"],
    });
    return secret;
  } catch (error) {
    if (!(error instanceof TelegramError)) throw error;
    log.warn("telegram_webhook_not_set", { channelId, kind: error.kind, status: error.status });
    return null;
  }
}

/** Removes the bot's webhook (a disconnect, or a reconnect that polls); a failure is logged, not thrown. */
export async function deleteTelegramWebhook(botToken: string, channelId: string) {
  try {
    await callTelegram(botToken, "deleteWebhook", {});
  } catch (error) {
    if (!(error instanceof TelegramError)) throw error;
    log.warn("telegram_webhook_not_deleted", { channelId, kind: error.kind, status: error.status });
  }
}
