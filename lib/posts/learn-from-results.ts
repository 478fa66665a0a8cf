import "server-only";
import type { Brand } from "@/db/schema";
import type { DraftExamples } from "@/lib/ai/examples-block";
import type { LearnedFrom } from "@/lib/contracts/learning";
import { CHANNELS, type Channel } from "@/lib/contracts/post-rules";
import { type ChannelRanking, rankChannel } from "@/lib/insights/rank-posts";
import { excerptOf } from "@/lib/text/excerpt";
import { examplesPrompt } from "./examples-prompt";

/** A ranking's best posts as a draft's examples; null below the minimum of measured posts. */
export function examplesFrom(ranking: ChannelRanking): DraftExamples | null {
  if (!ranking.enoughData || !ranking.measure || !ranking.patterns) return null;
  return {
    channel: ranking.channel,
    measure: ranking.measure,
    examples: ranking.top.map((post) => ({
      caption: post.caption,
      hashtags: post.hashtags,
      engagementRate: post.engagementRate,
      relative: post.relative,
      patterns: post.patterns,
    })),
    follow: ranking.patterns.top,
    avoid: ranking.patterns.bottom,
  };
}

/**
 * What a new draft learns from the brand's results on its channel (issue 41): the examples for the prompt,
 * and what the draft stores of them. `enabled: false` (the request's learnFromResults) skips the ranking.
 */
export async function learningFor(
  brand: Pick<Brand, "id" | "timeZone">,
  channel: Channel,
  enabled = true,
): Promise<{ examples: DraftExamples | null; learnedFrom: LearnedFrom }> {
  if (!enabled) {
    return {
      examples: null,
      learnedFrom: { status: "off", channel, measure: null, measuredPosts: 0, posts: [] },
    };
  }
  const ranking = await rankChannel(brand, channel);
  const examples = examplesFrom(ranking);
  return {
    examples,
    learnedFrom: {
      status: examples ? "examples" : "not_enough_results",
      channel,
      measure: ranking.measure,
      measuredPosts: ranking.measuredPosts,
      posts: examples
        ? ranking.top.map((post) => ({
            postId: post.postId,
            excerpt: excerptOf(post.caption),
            engagementRate: post.engagementRate,
            relative: post.relative,
            reach: post.reach,
            views: post.views,
            interactions: post.interactions,
          }))
        : [],
    },
  };
}

/** Per channel, the examples section a new draft's prompt gets, exactly as sent (null: not enough results). */
export async function examplesPrompts(brand: Pick<Brand, "id" | "timeZone">) {
  const prompts = await Promise.all(
    CHANNELS.map(async (channel) => {
      const examples = examplesFrom(await rankChannel(brand, channel));
      return [channel, examples ? examplesPrompt(examples) : null] as const;
    }),
  );
  return Object.fromEntries(prompts) as Record<Channel, string | null>;
}
