import "server-only";
import { timingSafeEqual } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { channelConnections } from "@/db/schema";
import { JSON_BODY_LIMIT_BYTES, readBodyCapped } from "@/lib/api/read-body";
import { ApiError, notFound } from "@/lib/errors/api-error";
import { channelCredentials } from "@/lib/publishing/channels";
import { recordReactionCounts } from "./collect-metrics";
import { type ReactionCountUpdate, reactionTotals } from "./platforms/telegram";

/**
 * The receiving end of a Telegram connection's webhook (set when it was connected: see
 * lib/publishing/platforms/telegram/webhook.ts).
 */

const SECRET_HEADER = "x-telegram-bot-api-secret-token";

function sameSecret(given: string | null, expected: string) {
  const a = Buffer.from(given ?? "");
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * POST /api/webhooks/telegram/{channelId}: one Update from Telegram. 404 for a channel that is not a
 * Telegram connection receiving through a webhook, 401 when the secret header is missing or wrong (nothing
 * recorded); a reaction count of the channel's chat is kept as the getUpdates path keeps it. Other updates
 * are acknowledged and ignored, so Telegram does not send them again.
 */
export async function receiveTelegramUpdate(channelId: string, request: Request) {
  const db = await getDb();
  const [channel] = await db
    .select()
    .from(channelConnections)
    .where(and(eq(channelConnections.id, channelId), eq(channelConnections.channel, "telegram")));
  const secret = channel ? channelCredentials(channel).webhookSecret : undefined;
  if (!channel || !secret) throw notFound("Telegram webhook");
  if (!sameSecret(request.headers.get(SECRET_HEADER), secret))
    throw new ApiError("unauthorized", "The X-Telegram-Bot-Api-Secret-Token header is missing or wrong.");
  const body = await readBodyCapped(request, JSON_BODY_LIMIT_BYTES);
  let update: ReactionCountUpdate | null = null;
  try {
    update = JSON.parse(body.toString("utf8"));
  } catch {}
  if (typeof update !== "object" || update === null || Array.isArray(update))
    throw new ApiError("invalid_request", "The body is not a Telegram Update in JSON.");
  const totals = reactionTotals([update], channel.externalId);
  const recorded = totals.size
    ? await db.transaction((tx) => recordReactionCounts(tx, channel, totals, new Date()))
    : 0;
  return { received: true, recorded };
}
