import { z } from "zod";
import { idOf } from "./common";
import { CHANNELS, MEDIA_FORMATS } from "./post-rules";

/** Results count once the post is this old: the first two days' numbers still move a lot. */
export const LEARNING_MIN_AGE_HOURS = 48;
/** How many of the best posts a draft takes as examples, and how many of the worst it learns to avoid. */
export const LEARNING_EXAMPLES = 3;

export const learningMeasure = z
  .enum(["reach", "views", "interactions"])
  .describe(
    "What the engagement rate is measured against: `reach` (interactions ÷ reach), else `views` (interactions ÷ views, e.g. LinkedIn impressions) when the platform gives no reach, else `interactions` (the count itself, e.g. Telegram's reactions, which come with neither).",
  );

/** What can be measured of a post's writing and timing. */
export const postPatterns = z.object({
  captionLength: z.number().int().min(0).describe("Characters in the caption."),
  hashtags: z.number().int().min(0).describe("Number of hashtags."),
  mediaType: z.enum(MEDIA_FORMATS).describe("The media plan's format."),
  opening: z.enum(["question", "statement"]).describe("Whether the first line asks a question."),
  emoji: z.boolean().describe("Whether the caption uses emoji."),
  hour: z.number().int().min(0).max(23).describe("The hour it was published, in the brand's time zone."),
});
export type PostPatterns = z.infer<typeof postPatterns>;

/** One post a draft learned from, as the draft stored it. */
export const learnedPost = z.object({
  postId: idOf("pst"),
  excerpt: z.string().describe("The caption's first words."),
  engagementRate: z
    .number()
    .describe("Interactions ÷ the measure (a count when the measure is `interactions`)."),
  relative: z
    .number()
    .nullable()
    .describe("The engagement rate ÷ the brand's median on the channel (2 = twice the median)."),
  reach: z.number().int().nullable().describe("Its reach; null when the platform gives none."),
  views: z.number().int().nullable().describe("Its views; null when the platform gives none."),
  interactions: z.number().int(),
});

export const learnedFrom = z
  .object({
    status: z
      .enum(["examples", "not_enough_results", "off"])
      .describe(
        "`examples`: the draft was written with the channel's best posts as examples; `not_enough_results`: the channel has fewer measured posts than the minimum, so the draft was written as before; `off`: the request turned learning off.",
      ),
    channel: z.enum(CHANNELS),
    measure: learningMeasure.nullable(),
    measuredPosts: z.number().int().min(0).describe("Measured posts older than 48 h on the channel."),
    posts: z
      .array(learnedPost)
      .max(LEARNING_EXAMPLES)
      .describe("The best posts used as examples, best first."),
  })
  .meta({ id: "LearnedFrom" });
export type LearnedFrom = z.infer<typeof learnedFrom>;
