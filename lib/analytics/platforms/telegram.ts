import "server-only";
import type { ChannelConnection } from "@/db/schema";
import { channelCredentials } from "@/lib/publishing/channels";
import { callTelegram } from "@/lib/publishing/platforms/telegram/client";
import { mark, type PlatformPull } from "./types";

/**
 * Telegram results. The Bot API gives no views: a channel's bot (an administrator) receives
 * `message_reaction_count` updates, the full anonymous reaction counts of a message whenever they change,
 * when it names them in `allowed_updates`; `getChatMemberCount` gives the subscribers.
 */

export const NO_VIEWS = "Not available from Telegram's Bot API.";
export const NO_REACTIONS_YET = "Telegram sends reaction counts when they change; none have come yet.";

/** Metrics Telegram's Bot API never gives. */
export const TELEGRAM_UNAVAILABLE = mark(
  ["views", "reach", "comments", "shares", "saves"],
  "unavailable",
  NO_VIEWS,
);

/** The part of a Bot API Update this reads (getUpdates' items, and the body Telegram POSTs to a webhook). */
export type ReactionCountUpdate = {
  update_id: number;
  message_reaction_count?: {
    chat: { id: number };
    message_id: number;
    reactions: { total_count: number }[];
  };
};

/**
 * The newest reaction total per message of the chat `chatId` in these updates (later updates win); updates
 * of other chats and of other kinds are left out.
 */
export function reactionTotals(
  updates: ReactionCountUpdate[],
  chatId: string,
  into = new Map<string, number>(),
) {
  for (const update of updates) {
    const counted = update.message_reaction_count;
    if (!counted || String(counted.chat?.id) !== chatId || !Array.isArray(counted.reactions)) continue;
    into.set(
      String(counted.message_id),
      counted.reactions.reduce((sum, reaction) => sum + (Number(reaction.total_count) || 0), 0),
    );
  }
  return into;
}

/** At most this many getUpdates pages per pull (100 updates each). */
const MAX_PAGES = 20;

/**
 * Takes the bot's pending reaction updates from `offset` on: the newest total per message of this
 * channel's chat, and the offset that confirms them (Telegram then drops them).
 */
export async function drainReactionUpdates(
  channel: ChannelConnection,
  offset: number | null,
): Promise<{ totals: Map<string, number>; offset: number | null }> {
  const { botToken } = channelCredentials(channel);
  const totals = new Map<string, number>();
  let next = offset;
  for (let page = 0; page < MAX_PAGES; page++) {
    const updates = await callTelegram<ReactionCountUpdate[]>(botToken, "getUpdates", {
      ...(next !== null ? { offset: next } : {}),
      limit: 100,
      timeout: 0,
      allowed_updates: ["message_reaction_count"],
    });
    for (const update of updates) next = update.update_id + 1;
    reactionTotals(updates, channel.externalId, totals);
    if (updates.length < 100) break;
  }
  return { totals, offset: next };
}

/** A Telegram publication's pull from a reaction total (from this pull's updates or an earlier one). */
export function telegramPull(reactions: number | undefined): PlatformPull {
  if (reactions === undefined)
    return {
      values: {},
      missing: {
        ...TELEGRAM_UNAVAILABLE,
        ...mark(["reactions", "interactions"], "pending", NO_REACTIONS_YET),
      },
      notice: null,
    };
  return { values: { reactions, interactions: reactions }, missing: TELEGRAM_UNAVAILABLE, notice: null };
}

export async function telegramFollowers(channel: ChannelConnection): Promise<number> {
  const { botToken } = channelCredentials(channel);
  return callTelegram<number>(botToken, "getChatMemberCount", { chat_id: channel.externalId });
}
