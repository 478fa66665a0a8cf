import "server-only";
import type { ChannelConnection } from "@/db/schema";
import type { PlatformAdapter } from "./adapter";
import { instagramAdapter } from "./instagram/adapter";
import { linkedinAdapter } from "./linkedin/adapter";
import { telegramAdapter } from "./telegram/adapter";

/** Each platform a publication can go to, by its channel. */
export const platformAdapters: Record<ChannelConnection["channel"], PlatformAdapter> = {
  telegram: telegramAdapter,
  linkedin: linkedinAdapter,
  instagram: instagramAdapter,
};
