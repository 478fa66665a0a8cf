import "server-only";
import type { BestTimes } from "@/lib/contracts/best-times";

/**
 * The best hours to post on a channel, in the brand's time zone: from the channel's own measured posts when it
 * has BEST_TIMES_MIN_POSTS of them, else the platform's commonly published defaults, labelled as such.
 * Starter signature (lead): the `schedule` branch implements it; other branches import it as it is.
 */
export async function bestTimesFor(brandId: string, channelId: string): Promise<BestTimes> {
  void brandId;
  return { channelId, source: "platform_defaults", measuredPosts: 0, timeZone: "UTC", times: [] };
}
