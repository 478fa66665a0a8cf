"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Button, ErrorNotice } from "@/components/ui/primitives";
import { callApi } from "@/lib/client/api-client";
import { getChannelSchedule, replaceChannelSchedule } from "@/lib/client/operations";
import type { BestTimes } from "@/lib/contracts/best-times";
import type { ScheduleSlot } from "@/lib/contracts/posting-schedule";
import { MAX_SCHEDULE_SLOTS } from "@/lib/contracts/schedule-rules";
import { formatInZone } from "@/lib/contracts/time-zone";
import { scheduleQueryKey } from "./publishing-basics";

export const WEEKDAY_NAMES = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];

/** A channel's posting schedule, its next free slot and its best times. */
export function useChannelSchedule(channelId: string | undefined) {
  return useQuery({
    queryKey: scheduleQueryKey(channelId ?? ""),
    enabled: Boolean(channelId),
    queryFn: async ({ signal }) =>
      (await callApi(getChannelSchedule, { params: { channelId: channelId as string }, signal })).data,
  });
}

const bySlot = (a: ScheduleSlot, b: ScheduleSlot) => a.weekday - b.weekday || a.time.localeCompare(b.time);

/** "Tuesday 09:00": a best time or slot as people read it. */
export const slotLabel = (weekday: number, time: string) => `${WEEKDAY_NAMES[weekday - 1]} ${time}`;

/** Where best times come from, never passing the platform's defaults off as the brand's own. */
export function bestTimesSource(best: BestTimes) {
  return best.source === "brand"
    ? `From this channel's ${best.measuredPosts} measured posts (engagement ÷ reach).`
    : `The platform's usual best times, not yet this channel's own: it has ${best.measuredPosts} measured post${best.measuredPosts === 1 ? "" : "s"} of the 10 needed.`;
}

/**
 * A channel's weekly posting schedule in channel settings: slots in the brand's time zone, Suggest from best
 * times, Save. Owners only (the panel is theirs).
 */
export function ChannelScheduleEditor({
  channelId,
  accountName,
}: {
  channelId: string;
  accountName: string;
}) {
  const queryClient = useQueryClient();
  const schedule = useChannelSchedule(channelId);
  const [draft, setDraft] = useState<ScheduleSlot[] | null>(null);
  const slots = draft ?? schedule.data?.slots ?? [];
  const save = useMutation({
    mutationFn: async () =>
      (
        await callApi(replaceChannelSchedule, {
          params: { channelId },
          body: { slots: [...slots].sort(bySlot) },
        })
      ).data,
    onSuccess: (saved) => {
      queryClient.setQueryData(scheduleQueryKey(channelId), saved);
      setDraft(null);
    },
  });
  const edit = (next: ScheduleSlot[]) => {
    save.reset();
    setDraft(next);
  };
  const update = (index: number, change: Partial<ScheduleSlot>) =>
    edit(slots.map((slot, i) => (i === index ? { ...slot, ...change } : slot)));
  const suggest = () => {
    const best = schedule.data?.bestTimes.times ?? [];
    edit(
      best
        .map(({ weekday, hour }) => ({ weekday, time: `${String(hour).padStart(2, "0")}:00` }))
        .sort(bySlot),
    );
  };
  const duplicate = new Set(slots.map((slot) => `${slot.weekday} ${slot.time}`)).size !== slots.length;

  if (schedule.isPending) return <div className="h-8 animate-pulse rounded bg-slate-100" role="status" />;
  if (schedule.error)
    return <ErrorNotice message={schedule.error.message} onRetry={() => schedule.refetch()} />;
  const { timeZone, bestTimes, nextSlot } = schedule.data;
  return (
    <div className="space-y-2 text-sm" data-testid="channel-schedule">
      <p className="text-slate-600">
        Add to queue takes the next free slot, in {timeZone}.{" "}
        {nextSlot && draft === null && (
          <span data-testid="schedule-next-slot">Next free slot: {formatInZone(nextSlot, timeZone)}.</span>
        )}
      </p>
      {slots.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 p-3 text-center text-slate-600">
          No time slots yet: add some, or suggest them from best times.
        </p>
      ) : (
        <ul className="space-y-1.5" aria-label={`Posting schedule of ${accountName}`}>
          {slots.map((slot, index) => (
            <li
              key={`${index}-${slot.weekday}-${slot.time}`}
              className="grid grid-cols-[minmax(0,1fr)_auto_auto] items-center gap-2"
            >
              <select
                aria-label={`Slot ${index + 1} weekday`}
                className="min-w-0 rounded-md border border-slate-300 bg-white px-2 py-1"
                value={slot.weekday}
                onChange={(event) => update(index, { weekday: Number(event.target.value) })}
              >
                {WEEKDAY_NAMES.map((name, day) => (
                  <option key={name} value={day + 1}>
                    {name}
                  </option>
                ))}
              </select>
              <input
                type="time"
                aria-label={`Slot ${index + 1} time`}
                className="rounded-md border border-slate-300 bg-white px-2 py-1"
                value={slot.time}
                required
                onChange={(event) => update(index, { time: event.target.value.slice(0, 5) })}
              />
              <button
                type="button"
                className="px-1 text-slate-600 underline"
                aria-label={`Remove slot ${index + 1}`}
                onClick={() => edit(slots.filter((_, i) => i !== index))}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      {duplicate && <p className="text-xs text-red-700">Two slots are the same day and time.</p>}
      <div className="flex flex-wrap gap-2">
        <Button
          variant="secondary"
          className="px-3 py-1"
          disabled={slots.length >= MAX_SCHEDULE_SLOTS}
          onClick={() => edit([...slots, { weekday: 1, time: "09:00" }])}
        >
          Add slot
        </Button>
        <Button
          variant="secondary"
          className="px-3 py-1"
          disabled={!bestTimes.times.length}
          onClick={suggest}
        >
          Suggest from best times
        </Button>
        <Button
          className="px-3 py-1"
          disabled={draft === null || save.isPending || duplicate}
          onClick={() => save.mutate()}
        >
          {save.isPending ? "Saving…" : "Save schedule"}
        </Button>
      </div>
      <p className="text-xs text-slate-500" data-testid="best-times-source">
        Best times:{" "}
        {bestTimes.times
          .map((time) => slotLabel(time.weekday, `${String(time.hour).padStart(2, "0")}:00`))
          .join(", ") || "none yet"}
        . {bestTimesSource(bestTimes)}
      </p>
      {save.error && <ErrorNotice message={save.error.message} />}
      {save.isSuccess && (
        <p role="status" className="text-emerald-700">
          Schedule saved.
        </p>
      )}
    </div>
  );
}
