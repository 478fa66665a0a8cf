import { type PostBrief, writeBriefBlock } from "@/lib/ai/brief-block";
import type { DraftExamples } from "@/lib/ai/examples-block";
import type { Channel, Goal } from "@/lib/contracts/posts";
import { examplesPrompt } from "./examples-prompt";

const CHANNEL_STYLE: Record<Channel, string> = {
  linkedin:
    "LinkedIn: short paragraphs of one or two sentences, separated by blank lines; professional but human.",
  instagram:
    "Instagram: a strong first line that works on its own (it is all people see before 'more'), then short lines; links do not work in captions, so point to the link in bio.",
  telegram: "Telegram: concise; the first line is a headline; one short paragraph, then the call to action.",
};

const GOAL_STYLE: Record<Goal, string> = {
  awareness: "Awareness: make people notice and remember the brand. No hard sell, no buying prompt.",
  engagement: "Engagement: invite comments, answers or shares.",
  traffic: "Traffic: end with a clear call to click through to read more.",
  leads: "Leads: end with a clear call to sign up or get in touch.",
  sales: "Sales: end with a clear call to buy or order.",
  announcement: "Announcement: state the news plainly and make it easy to share.",
};

/**
 * The user prompt for a draft: the brief in words for hosted models, the channel's best posts as examples
 * when the draft learns from results, then the same brief as a block.
 */
export function briefPrompt(brief: PostBrief, examples?: DraftExamples | null) {
  const assets = brief.assets.length
    ? brief.assets.map(
        (asset) => `- ${asset.type}: ${asset.url}${asset.description ? ` (${asset.description})` : ""}`,
      )
    : ["- none"];
  return [
    `Write a ${brief.channel} post for this brief.`,
    `Topic: ${brief.topic}`,
    `Goal: ${GOAL_STYLE[brief.goal]}`,
    `Channel: ${CHANNEL_STYLE[brief.channel]}`,
    `Assets to use (put images and videos in the media plan, links in the call to action):\n${assets.join("\n")}`,
    [
      "Rules:",
      `- The caption has at most ${brief.captionLimitWithMedia} characters when the media plan has items, otherwise at most ${brief.captionLimit}.`,
      `- At most ${brief.maxHashtags} hashtags, each # followed by letters, digits or _, no duplicates. Keep hashtags out of the caption.`,
      "- The media plan fits the channel and the goal; every item has alt text.",
      "- Use the brand's tone, voice and values; follow its 'Always' list; never do anything on its 'Never' list; never use a banned word.",
    ].join("\n"),
    ...(examples ? [examplesPrompt(examples)] : []),
    "Answer with JSON only: caption, hashtags and mediaPlan.",
    writeBriefBlock(brief),
  ].join("\n\n");
}
