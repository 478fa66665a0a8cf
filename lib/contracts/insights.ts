import { z } from "zod";
import { bestTimes } from "./best-times";
import { idOf, isoDateTime } from "./common";
import { learningMeasure, postPatterns } from "./learning";
import { LEARNING_MIN_POSTS } from "./learning-rules";
import { defineOperation } from "./operation";
import { CHANNELS } from "./post-rules";
import { ROUTES } from "./routes";

export const brandInsightsParams = z.object({ brandId: idOf("brd") });

export const insightPost = z.object({
  postId: idOf("pst"),
  title: z.string().describe("The caption's first words."),
  engagementRate: z
    .number()
    .describe("Interactions ÷ the channel's measure (a count when the measure is `interactions`)."),
  relative: z
    .number()
    .nullable()
    .describe("The engagement rate ÷ the brand's median on the channel; null when the median is 0."),
  reach: z
    .number()
    .int()
    .nullable()
    .describe("Distinct accounts that saw it; null when the platform gives none."),
  views: z.number().int().nullable().describe("Times it was shown; null when the platform gives none."),
  interactions: z.number().int(),
  publishedAt: isoDateTime,
  patterns: postPatterns,
});

export const channelInsights = z.object({
  channel: z.enum(CHANNELS),
  enoughData: z
    .boolean()
    .describe(
      `Whether the channel has at least ${LEARNING_MIN_POSTS} measured posts older than 48 h; below that, drafts are written without examples and top, bottom and patterns are empty.`,
    ),
  measure: learningMeasure
    .nullable()
    .describe("What the engagement rate is measured against; null with no results."),
  measuredPosts: z.number().int().min(0).describe("Measured posts older than 48 h on the channel."),
  medianEngagementRate: z.number().nullable().describe("The brand's median engagement rate on the channel."),
  top: z.array(insightPost).describe("The best 3 posts, best first: the examples new drafts take."),
  bottom: z
    .array(insightPost)
    .describe("The weakest 3 posts, weakest first: their patterns are what drafts avoid."),
  patterns: z
    .object({
      top: postPatterns.describe("What the best posts have in common."),
      bottom: postPatterns.describe("What the weakest posts have in common."),
    })
    .nullable(),
  bestTimes: z
    .array(bestTimes)
    .describe("Best hours per connected channel of this platform, in the brand's time zone."),
});

export const brandInsightsResponse = z
  .object({
    brandId: idOf("brd"),
    timeZone: z.string().describe("The brand's IANA time zone; hours are in it."),
    channels: z.array(channelInsights).describe("One entry per platform, linkedin, instagram, telegram."),
  })
  .meta({ id: "BrandInsights" });

export type BrandInsightsResponse = z.infer<typeof brandInsightsResponse>;

export const getBrandInsights = defineOperation({
  ...ROUTES.getBrandInsights,
  title: "Get brand insights",
  auth: "bearer",
  permission: "brand.read",
  summary:
    "What a brand's own results say, per channel: the best and weakest posts by engagement rate against the brand's median (posts older than 48 h, at least 10 of them), what they have in common, and the best times to post.",
  pathParams: brandInsightsParams,
  responses: { 200: { description: "The brand's insights per channel.", schema: brandInsightsResponse } },
  errors: ["invalid_request"],
});
