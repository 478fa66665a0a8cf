import "server-only";
import { and, eq, inArray, not, or, sql } from "drizzle-orm";
import type { Tx } from "@/db/client";
import { channelConnections, publications } from "@/db/schema";
import { recordActivity } from "@/lib/activity/record-activity";
import { log } from "@/lib/log";
import { removeChannelAvatar } from "./channel-avatar";

/**
 * A person's own account: a LinkedIn member (not a page, whose URN is an organization's) or an Instagram
 * account. It posts as that person, so it may stay connected only while they are in the brand.
 */
const personal = or(
  eq(channelConnections.channel, "instagram"),
  and(
    eq(channelConnections.channel, "linkedin"),
    not(sql`${channelConnections.externalId} like 'urn:li:organization:%'`),
  ),
);

/**
 * Disconnects the personal accounts `userId` connected to `brandIds` (inside the transaction that removes
 * them from those brands): their scheduled publications are canceled and the rows, with their tokens, are
 * deleted; each brand's activity log tells its remaining owners (`channel.personal_disconnected`, with the reason).
 * Page connections stay. Returns a function that removes the copied pictures once the transaction committed.
 */
export async function disconnectPersonalChannels(
  tx: Tx,
  {
    userId,
    brandIds,
    email,
    actorId,
    reason,
  }: {
    userId: string;
    /** The person's email, which the activity entries keep. */
    email: string;
    brandIds: string[];
    actorId: string;
    reason: "member_removed" | "account_deleted";
  },
) {
  if (brandIds.length === 0) return async () => {};
  const rows = await tx
    .select()
    .from(channelConnections)
    .where(
      and(
        inArray(channelConnections.brandId, brandIds),
        eq(channelConnections.connectedBy, userId),
        personal,
      ),
    )
    .for("update");
  if (rows.length === 0) return async () => {};
  const ids = rows.map((row) => row.id);
  const now = new Date();
  await tx
    .update(publications)
    .set({ status: "canceled", finishedAt: now, updatedAt: now })
    .where(and(inArray(publications.channelId, ids), inArray(publications.status, ["scheduled", "held"])));
  await tx.delete(channelConnections).where(inArray(channelConnections.id, ids));
  for (const row of rows) {
    await recordActivity(tx, {
      brandId: row.brandId,
      actorId,
      action: "channel.personal_disconnected",
      subjectType: "channel",
      subjectId: row.id,
      details: { email, channel: row.channel, accountName: row.accountName, reason },
    });
  }
  return async () => {
    for (const row of rows) {
      await removeChannelAvatar(row.avatarUrl);
      log.info("channel_disconnected", { channelId: row.id, brandId: row.brandId, reason });
    }
  };
}
