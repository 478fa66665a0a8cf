import { z } from "zod";
import { idOf } from "./common";

/** DESIGN §11: best times come from the brand's own results once a channel has this many measured posts. */
export const BEST_TIMES_MIN_POSTS = 10;

export const bestTime = z.object({
  weekday: z
    .number()
    .int()
    .min(1)
    .max(7)
    .describe("ISO weekday in the brand's time zone: 1 Monday … 7 Sunday."),
  hour: z.number().int().min(0).max(23).describe("Hour of the day in the brand's time zone."),
  score: z.number().min(0).max(1).describe("How good the hour is relative to the channel's best (1)."),
});

export const bestTimes = z.object({
  channelId: idOf("chn"),
  source: z
    .enum(["brand", "platform_defaults"])
    .describe(
      "`brand`: from this channel's own measured posts; `platform_defaults`: commonly published defaults for the platform, shown while there are fewer measured posts than the minimum.",
    ),
  measuredPosts: z.number().int().min(0).describe("Measured posts the times were computed from."),
  timeZone: z.string().describe("The brand's IANA time zone the weekdays and hours are in."),
  times: z.array(bestTime).max(5).describe("The best hours, best first."),
});
export type BestTimes = z.infer<typeof bestTimes>;
