/**
 * The small pieces the calendar shares with the channel and publish panels: platform names, a publication's
 * channel label, the channels and schedule query keys, the status colours. Apart from the panels, so the
 * calendar page does not load the panels' code (a page's first-load JS is every module it imports).
 */
import { useQuery } from "@tanstack/react-query";
import { callApi } from "@/lib/client/api-client";
import { listChannels } from "@/lib/client/operations";
import type { ChannelConnectionView, PublicationView } from "@/lib/contracts/publishing";

export const PLATFORM_LABELS = {
  telegram: "Telegram",
  linkedin: "LinkedIn",
  instagram: "Instagram",
} as const;

export const STATUS_STYLES: Record<PublicationView["status"], string> = {
  scheduled: "bg-sky-50 text-sky-800 ring-sky-200",
  held: "bg-violet-50 text-violet-800 ring-violet-200",
  publishing: "bg-amber-50 text-amber-900 ring-amber-200",
  published: "bg-emerald-50 text-emerald-800 ring-emerald-200",
  failed: "bg-red-50 text-red-800 ring-red-200",
  canceled: "bg-slate-100 text-slate-700 ring-slate-200",
};

/** Where a publication goes, as people read it: its connection's name and platform, else the platform. */
export function publicationChannelLabel(
  connections: ChannelConnectionView[] | undefined,
  { channelId, channel }: Pick<PublicationView, "channelId" | "channel">,
) {
  const connection = connections?.find((item) => item.channelId === channelId);
  return connection
    ? `${connection.accountName} (${PLATFORM_LABELS[connection.channel]})`
    : PLATFORM_LABELS[channel];
}

export const channelsQueryKey = (brandId: string) => ["channels", brandId] as const;

export const scheduleQueryKey = (channelId: string) => ["channel-schedule", channelId] as const;

export function useChannels(brandId: string | null) {
  return useQuery({
    queryKey: channelsQueryKey(brandId ?? ""),
    enabled: Boolean(brandId),
    queryFn: async ({ signal }) =>
      (await callApi(listChannels, { query: { brandId: brandId as string }, signal })).data.items,
  });
}
