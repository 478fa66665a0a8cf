import "server-only";
import type { ChannelConnection } from "@/db/schema";
import type { ChannelConnectionView } from "@/lib/contracts/publishing";
import { signedKeyOrUrl } from "@/lib/media/storage";

import { mediaDeliveryMode } from "./media-delivery";
import { INSTAGRAM_INSIGHTS_SCOPE } from "./platforms/instagram/client";

const UPLOAD_NOTE =
  "APP_URL is not a public address, so videos are uploaded with each post instead of fetched by Telegram.";

const UNREACHABLE_NOTE =
  "APP_URL is not a public address, so Instagram cannot fetch the post's images and video: set APP_URL to this server's public URL before publishing.";

function note(row: ChannelConnection, mediaDelivery: "url" | "upload") {
  if (row.statusMessage) return row.statusMessage;
  if (row.channel === "telegram" && mediaDelivery === "upload") return UPLOAD_NOTE;
  if (row.channel === "instagram" && mediaDeliveryMode() === "upload") return UNREACHABLE_NOTE;
  return null;
}

/**
 * Instagram reads results only with instagram_business_manage_insights: an account whose grant did not name
 * it (or was not kept: connected before) is asked to connect again, for results only.
 */
const needsResultsReconnect = (row: ChannelConnection) =>
  row.channel === "instagram" && !row.grantedScopes?.includes(INSTAGRAM_INSIGHTS_SCOPE);

/** A connection as the API shows it: never its credentials; our copy of its picture freshly signed. */
export async function toChannelView(row: ChannelConnection): Promise<ChannelConnectionView> {
  // LinkedIn always takes images as uploads; Instagram only fetches by URL; Telegram fetches by URL when
  // APP_URL is public.
  const mediaDelivery =
    row.channel === "linkedin" ? "upload" : row.channel === "instagram" ? "url" : mediaDeliveryMode();
  return {
    channelId: row.id,
    brandId: row.brandId,
    channel: row.channel,
    accountName: row.accountName,
    accountHandle: row.accountHandle,
    avatarUrl: await signedKeyOrUrl(row.avatarUrl),
    status: row.status,
    statusMessage: note(row, mediaDelivery),
    language: row.language,
    mediaDelivery,
    resultsReconnect: needsResultsReconnect(row),
    createdAt: row.createdAt.toISOString(),
  };
}
