import "server-only";
import { sql } from "drizzle-orm";
import type { Db, Tx } from "@/db/client";
import { channelMetricState } from "@/db/schema";

type StatePatch = Partial<Omit<typeof channelMetricState.$inferInsert, "channelId" | "updatedAt">>;

/** Creates or updates a channel's collection state (backoff, notice, Telegram offset, followers day). */
export async function setChannelMetricState(db: Db | Tx, channelId: string, patch: StatePatch) {
  await db
    .insert(channelMetricState)
    .values({ channelId, ...patch })
    .onConflictDoUpdate({ target: channelMetricState.channelId, set: { ...patch, updatedAt: sql`now()` } });
}
