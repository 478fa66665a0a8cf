import { z } from "zod";
import { bestTimes } from "./best-times";
import { idOf, isoDateTime } from "./common";
import { defineOperation } from "./operation";
import { ROUTES } from "./routes";
import { MAX_SCHEDULE_SLOTS } from "./schedule-rules";

export const scheduleSlot = z
  .object({
    weekday: z.int().min(1).max(7).describe("ISO weekday in the brand's time zone: 1 Monday … 7 Sunday."),
    time: z
      .string()
      .regex(/^([01]\d|2[0-3]):[0-5]\d$/, "Give the time as HH:MM (00:00 to 23:59).")
      .describe("Time of day in the brand's time zone, HH:MM (24 h).")
      .meta({ example: "09:30" }),
  })
  .meta({ id: "ScheduleSlot" });

export type ScheduleSlot = z.infer<typeof scheduleSlot>;

export const channelScheduleParams = z.object({ channelId: idOf("chn") });

export const channelSchedule = z
  .object({
    channelId: idOf("chn"),
    timeZone: z
      .string()
      .describe("The brand's IANA time zone the slots are in.")
      .meta({ example: "Europe/Berlin" }),
    slots: z.array(scheduleSlot).describe("The weekly slots, Monday first, then by time."),
    nextSlot: isoDateTime
      .nullable()
      .describe(
        'The next free slot, UTC: where Add to queue (`slot: "next"`) would put a post now. Null when the channel has no slots.',
      ),
    bestTimes: bestTimes.describe(
      "The channel's best hours, which Suggest from best times fills the schedule with.",
    ),
  })
  .meta({ id: "ChannelSchedule" });

export type ChannelScheduleView = z.infer<typeof channelSchedule>;

export const replaceChannelScheduleBody = z
  .strictObject(
    {
      slots: z
        .array(scheduleSlot)
        .max(MAX_SCHEDULE_SLOTS, `At most ${MAX_SCHEDULE_SLOTS} slots a week.`)
        .describe("The whole weekly schedule (it replaces the one before); an empty list clears it."),
    },
    { error: (issue) => (issue.code === "unrecognized_keys" ? "Only slots can be set." : undefined) },
  )
  .superRefine((body, ctx) => {
    const seen = new Set<string>();
    body.slots.forEach((slot, index) => {
      const key = `${slot.weekday} ${slot.time}`;
      if (seen.has(key))
        ctx.addIssue({ code: "custom", path: ["slots", index], message: "This slot is listed twice." });
      seen.add(key);
    });
  })
  .meta({ id: "ReplaceChannelScheduleRequest" });

export type ReplaceChannelScheduleInput = z.output<typeof replaceChannelScheduleBody>;

export const getChannelSchedule = defineOperation({
  ...ROUTES.getChannelSchedule,
  title: "Get channel schedule",
  auth: "bearer",
  permission: "brand.read",
  summary:
    "A channel's posting schedule (weekly slots in the brand's time zone), its next free slot and its best times (the brand's own once it has enough measured posts, else the platform's defaults, labelled).",
  pathParams: channelScheduleParams,
  responses: { 200: { description: "The schedule.", schema: channelSchedule } },
  errors: ["invalid_request"],
});

export const replaceChannelSchedule = defineOperation({
  ...ROUTES.replaceChannelSchedule,
  title: "Replace channel schedule",
  auth: "bearer",
  permission: "channel.manage",
  summary:
    "Replaces a channel's weekly posting slots (in the brand's time zone). Posts already queued keep their times. Owners only.",
  pathParams: channelScheduleParams,
  body: replaceChannelScheduleBody,
  responses: { 200: { description: "The schedule as saved.", schema: channelSchedule } },
  errors: ["invalid_request"],
});
