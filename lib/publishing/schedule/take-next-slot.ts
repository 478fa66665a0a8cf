import "server-only";
import { getDb } from "@/db/client";
import type { ChannelConnection } from "@/db/schema";
import { isUniqueViolation } from "@/lib/auth/users";
import { log } from "@/lib/log";
import { findNextSlot, noFreeSlot } from "./channel-schedule";

/** Tries before giving up when other requests keep taking the slot found (each try finds the next one). */
const ATTEMPTS = 8;

/**
 * Add to queue: finds the channel's next free slot and lets `insert` take it. The unique index on (channel,
 * slot) of active publications decides a race: the loser's insert fails, and it looks again.
 */
export async function takeNextSlot<T>(
  channel: ChannelConnection,
  insert: (publishAt: Date, slotAt: Date) => Promise<T>,
): Promise<T> {
  const db = await getDb();
  for (let attempt = 1; ; attempt++) {
    const next = await findNextSlot(channel, db);
    if (!next.at) throw noFreeSlot(channel.accountName, next.reason);
    try {
      return await insert(next.at, next.at);
    } catch (error) {
      if (!isUniqueViolation(error) || attempt >= ATTEMPTS) throw error;
      log.info("queue_slot_taken", { channelId: channel.id, slotAt: next.at.toISOString(), attempt });
    }
  }
}
