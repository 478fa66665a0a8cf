import "server-only";
import { and, asc, eq, gt, inArray, isNotNull, lt, or } from "drizzle-orm";
import { getDb } from "@/db/client";
import { brands, type ChannelConnection, channelScheduleSlots, publications } from "@/db/schema";
import type { Principal } from "@/lib/auth/authenticate";
import type { ChannelScheduleView, ReplaceChannelScheduleInput } from "@/lib/contracts/posting-schedule";
import { PUBLISH_AT_MAX_DAYS } from "@/lib/contracts/publishing-rules";
import { nextFreeSlot, slotMinute, slotTime, type WeeklySlot } from "@/lib/contracts/slot-times";
import { ApiError } from "@/lib/errors/api-error";
import { bestTimesFor } from "@/lib/insights/best-times";
import { log } from "@/lib/log";
import { getChannelForPrincipal } from "../channels";

/** Publications that hold their time on a channel: a slot they sit on is not free. */
const ACTIVE = ["scheduled", "held"] as const;

type Executor = Pick<Awaited<ReturnType<typeof getDb>>, "select">;

export async function loadSlots(channelId: string, db: Executor): Promise<WeeklySlot[]> {
  return db
    .select({ weekday: channelScheduleSlots.weekday, minute: channelScheduleSlots.minute })
    .from(channelScheduleSlots)
    .where(eq(channelScheduleSlots.channelId, channelId))
    .orderBy(asc(channelScheduleSlots.weekday), asc(channelScheduleSlots.minute));
}

async function timeZoneOf(brandId: string, db: Executor) {
  const [brand] = await db.select({ timeZone: brands.timeZone }).from(brands).where(eq(brands.id, brandId));
  return brand?.timeZone ?? "UTC";
}

/**
 * The channel's next free slot after `now`: the first slot instant no active publication of the channel sits
 * on (one queued into it, or one scheduled at that very time). Null with the reason when there is none.
 */
export async function findNextSlot(
  channel: Pick<ChannelConnection, "id" | "brandId">,
  db: Executor,
  now = new Date(),
): Promise<{ at: Date } | { at: null; reason: "no_slots" | "full" }> {
  const slots = await loadSlots(channel.id, db);
  if (!slots.length) return { at: null, reason: "no_slots" };
  const timeZone = await timeZoneOf(channel.brandId, db);
  const horizon = new Date(now.getTime() + PUBLISH_AT_MAX_DAYS * 86_400_000);
  const rows = await db
    .select({ publishAt: publications.publishAt, slotAt: publications.slotAt })
    .from(publications)
    .where(
      and(
        eq(publications.channelId, channel.id),
        inArray(publications.status, [...ACTIVE]),
        or(
          and(gt(publications.publishAt, now), lt(publications.publishAt, horizon)),
          and(isNotNull(publications.slotAt), gt(publications.slotAt, now)),
        ),
      ),
    );
  const taken = new Set<number>();
  for (const row of rows) {
    taken.add(row.publishAt.getTime());
    if (row.slotAt) taken.add(row.slotAt.getTime());
  }
  const at = nextFreeSlot(slots, timeZone, now, taken, PUBLISH_AT_MAX_DAYS);
  return at ? { at } : { at: null, reason: "full" };
}

export function noFreeSlot(accountName: string, reason: "no_slots" | "full") {
  return new ApiError(
    "no_free_slot",
    reason === "no_slots"
      ? `${accountName} has no posting schedule yet; an owner adds time slots in the channel's settings, or pick a time.`
      : `Every slot of ${accountName}'s schedule is taken as far ahead as posts may be scheduled; add slots or pick a time.`,
    { details: { reason } },
  );
}

async function scheduleView(channel: ChannelConnection): Promise<ChannelScheduleView> {
  const db = await getDb();
  const [slots, timeZone, next, bestTimes] = await Promise.all([
    loadSlots(channel.id, db),
    timeZoneOf(channel.brandId, db),
    findNextSlot(channel, db),
    bestTimesFor(channel.brandId, channel.id),
  ]);
  return {
    channelId: channel.id,
    timeZone,
    slots: slots.map(({ weekday, minute }) => ({ weekday, time: slotTime(minute) })),
    nextSlot: next.at?.toISOString() ?? null,
    bestTimes,
  };
}

/** GET /api/channels/{channelId}/schedule: any member of the brand may read it. */
export async function getChannelSchedule({
  principal,
  channelId,
}: {
  principal: Principal;
  channelId: string;
}) {
  const channel = await getChannelForPrincipal({ principal, channelId, permission: "brand.read" });
  return scheduleView(channel);
}

/** PATCH /api/channels/{channelId}/schedule: owners replace the whole weekly schedule in one transaction. */
export async function replaceChannelSchedule({
  principal,
  channelId,
  input,
}: {
  principal: Principal;
  channelId: string;
  input: ReplaceChannelScheduleInput;
}) {
  const channel = await getChannelForPrincipal({ principal, channelId, permission: "channel.manage" });
  const db = await getDb();
  await db.transaction(async (tx) => {
    await tx.delete(channelScheduleSlots).where(eq(channelScheduleSlots.channelId, channelId));
    if (input.slots.length)
      await tx
        .insert(channelScheduleSlots)
        .values(
          input.slots.map((slot) => ({ channelId, weekday: slot.weekday, minute: slotMinute(slot.time) })),
        );
  });
  log.info("channel_schedule_replaced", { channelId, brandId: channel.brandId, slots: input.slots.length });
  return scheduleView(channel);
}
