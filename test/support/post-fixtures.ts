import type { Brand } from "@/db/schema";
import { DEMO_BRAND } from "@/db/seed";
import type { PostBrief } from "@/lib/ai/brief-block";
import { CHANNEL_RULES, type Channel, type Goal } from "@/lib/contracts/posts";

/** A brand row as the database returns it, for tests of code that takes a loaded brand. */
export function brandRow(overrides: Partial<Brand> = {}): Brand {
  return {
    id: "brd_testbrand0001",
    ...DEMO_BRAND,
    monthlyVideoQuota: null,
    avatarStatus: "none",
    avatarImageKey: null,
    avatarFramesKey: null,
    avatarError: null,
    avatarTrainingEndsAt: null,
    createdAt: new Date(),
    updatedAt: new Date(),
    ...overrides,
  };
}

export function briefFor(
  channel: Channel,
  goal: Goal,
  topic: string,
  assets: PostBrief["assets"] = [],
): PostBrief {
  const rules = CHANNEL_RULES[channel];
  return {
    channel,
    goal,
    topic,
    assets,
    captionLimit: rules.captionLimit,
    captionLimitWithMedia: rules.captionLimitWithMedia,
    maxHashtags: rules.maxHashtags,
  };
}
