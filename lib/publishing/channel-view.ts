import "server-only";
import type { ChannelConnection } from "@/db/schema";
import type { ChannelConnectionView } from "@/lib/contracts/publishing";
import { mediaDeliveryMode } from "./media-delivery";

const UPLOAD_NOTE =
  "APP_URL is not a public address, so videos are uploaded with each post instead of fetched by Telegram.";

/** A connection as the API shows it: never its credentials. */
export function toChannelView(row: ChannelConnection): ChannelConnectionView {
  // LinkedIn always takes images as uploads; Telegram fetches by URL when APP_URL is public.
  const mediaDelivery = row.channel === "linkedin" ? "upload" : mediaDeliveryMode();
  return {
    channelId: row.id,
    brandId: row.brandId,
    channel: row.channel,
    accountName: row.accountName,
    accountHandle: row.accountHandle,
    avatarUrl: row.avatarUrl,
    status: row.status,
    statusMessage:
      row.statusMessage ?? (row.channel === "telegram" && mediaDelivery === "upload" ? UPLOAD_NOTE : null),
    mediaDelivery,
    createdAt: row.createdAt.toISOString(),
  };
}
