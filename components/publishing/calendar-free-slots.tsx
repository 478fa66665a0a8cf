"use client";

import { useQueries } from "@tanstack/react-query";
import { callApi } from "@/lib/client/api-client";
import { getChannelSchedule } from "@/lib/client/operations";
import type { ChannelConnectionView, PublicationView } from "@/lib/contracts/publishing";
import { slotInstants, slotMinute } from "@/lib/contracts/slot-times";
import { formatInZone, formatTimeInZone, zonedDayKey, zonedParts } from "@/lib/contracts/time-zone";
import { scheduleQueryKey } from "./publishing-basics";

export type FreeSlot = {
  key: string;
  channelId: string;
  channelName: string;
  day: string;
  hour: number;
  time: string;
  label: string;
};

/** Publications that hold their slot (a canceled or finished one leaves it). */
const HOLDS_SLOT = new Set(["scheduled", "held"]);

/**
 * The calendar's empty slots: each active channel's posting schedule in the window [from, to) from now on, in
 * the brand's zone, without the slots a scheduled publication of that channel already sits on.
 */
export function useFreeSlots({
  channels,
  publications,
  timeZone,
  from,
  to,
}: {
  channels: ChannelConnectionView[] | undefined;
  publications: PublicationView[] | undefined;
  timeZone: string;
  from: string;
  to: string;
}): FreeSlot[] {
  const active = (channels ?? []).filter((channel) => channel.status === "active");
  const schedules = useQueries({
    queries: active.map((channel) => ({
      queryKey: scheduleQueryKey(channel.channelId),
      queryFn: async ({ signal }: { signal: AbortSignal }) =>
        (await callApi(getChannelSchedule, { params: { channelId: channel.channelId }, signal })).data,
    })),
  });
  if (!publications) return [];
  const taken = new Set(
    publications
      .filter((publication) => HOLDS_SLOT.has(publication.status))
      .map((publication) => `${publication.channelId} ${Date.parse(publication.publishAt)}`),
  );
  const now = new Date();
  const start = new Date(Math.max(Date.parse(from), now.getTime()));
  return active.flatMap((channel, index) => {
    const schedule = schedules[index]?.data;
    if (!schedule?.slots.length) return [];
    const weekly = schedule.slots.map(({ weekday, time }) => ({ weekday, minute: slotMinute(time) }));
    return slotInstants(weekly, timeZone, start, new Date(to))
      .filter((at) => !taken.has(`${channel.channelId} ${at.getTime()}`))
      .map((at) => ({
        key: `${channel.channelId}-${at.getTime()}`,
        channelId: channel.channelId,
        channelName: channel.accountName,
        day: zonedDayKey(at, timeZone),
        hour: zonedParts(at, timeZone).hour,
        time: formatTimeInZone(at, timeZone),
        label: `${formatInZone(at, timeZone)} on ${channel.accountName}`,
      }));
  });
}
