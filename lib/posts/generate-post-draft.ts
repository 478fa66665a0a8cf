import { randomInt } from "node:crypto";
import { getDb } from "@/db/client";
import { posts } from "@/db/schema";
import { chooseTextModel } from "@/lib/ai/model-choice";
import { ModerationUnavailableError } from "@/lib/ai/moderation";
import { ApiError } from "@/lib/api/api-error";
import type { Principal } from "@/lib/auth/authenticate";
import { buildBrandPrompt } from "@/lib/brands/brand-prompt";
import { getBrandForPrincipal } from "@/lib/brands/get-brand";
import { CHANNEL_RULES, type GeneratePostInput, type PostView } from "@/lib/contracts/posts";
import { newId } from "@/lib/ids";
import { log } from "@/lib/log";
import { assertBrandHasContext, assertBriefLongEnough } from "./check-brief";
import { moderateContent } from "./moderate-content";
import { toPostView } from "./post-view";
import { moderationError, writeDraft } from "./write-draft";

/**
 * Generate post (DESIGN §5): brand → brief length → brand context → brief moderation → draft → save.
 * Nothing is written unless a draft that keeps the channel's rules and passes moderation exists.
 */
export async function generatePostDraft({
  principal,
  input,
  requestId,
}: {
  principal: Principal;
  input: GeneratePostInput;
  requestId?: string;
}): Promise<PostView> {
  const brand = await getBrandForPrincipal({ principal, brandId: input.brandId });
  assertBriefLongEnough(input.topic);
  assertBrandHasContext(brand);

  const choice = chooseTextModel();
  const assets = input.assets ?? [];
  const toneOverride = input.toneOverride || null;
  try {
    const flag = await moderateContent({
      stage: "brief",
      content: {
        texts: [input.topic, toneOverride ?? "", ...assets.map((asset) => asset.description ?? "")],
      },
      bannedWords: brand.bannedWords,
      choice,
    });
    if (flag) throw moderationError(flag);
  } catch (error) {
    if (!(error instanceof ModerationUnavailableError)) throw error;
    log.warn("post_moderation_unavailable", { requestId, error: error.message });
    throw new ApiError(
      "generation_failed",
      "The moderation check did not answer, so nothing was written. Try again in a moment.",
    );
  }

  const seed = input.seed ?? randomInt(2 ** 31 - 1);
  const rules = CHANNEL_RULES[input.channel];
  const draft = await writeDraft({
    choice,
    system: buildBrandPrompt(brand, { toneOverride }),
    brief: {
      channel: input.channel,
      goal: input.goal,
      topic: input.topic.trim(),
      assets,
      captionLimit: rules.captionLimit,
      captionLimitWithMedia: rules.captionLimitWithMedia,
      maxHashtags: rules.maxHashtags,
    },
    bannedWords: brand.bannedWords,
    seed,
    requestId,
  });

  const db = await getDb();
  // Millisecond timestamps from here, so list cursors (JavaScript dates) compare exactly.
  const now = new Date();
  const [row] = await db
    .insert(posts)
    .values({
      id: newId("pst"),
      brandId: brand.id,
      createdBy: principal.userId,
      channel: input.channel,
      goal: input.goal,
      topic: input.topic.trim(),
      toneOverride,
      assets,
      ...draft.content,
      status: "draft",
      seed,
      provider: draft.provider,
      model: draft.model,
      latencyMs: draft.latencyMs,
      inputTokens: draft.inputTokens,
      outputTokens: draft.outputTokens,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  log.info("post_generated", {
    requestId,
    postId: row.id,
    brandId: brand.id,
    provider: draft.provider,
    model: draft.model,
    latencyMs: draft.latencyMs,
  });
  return toPostView(row);
}
