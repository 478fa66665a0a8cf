import { randomInt } from "node:crypto";
import { getTableColumns, sql } from "drizzle-orm";
import { getDb, preparedPerDb } from "@/db/client";
import { type Brand, type Post, posts } from "@/db/schema";
import { chooseTextModel, type TextModelChoice } from "@/lib/ai/model-choice";
import { ModerationUnavailableError } from "@/lib/ai/moderation";
import { ApiError } from "@/lib/api/api-error";
import type { Principal } from "@/lib/auth/authenticate";
import { buildBrandPrompt } from "@/lib/brands/brand-prompt";
import { CHANNEL_RULES, type GeneratePostInput, type PostView } from "@/lib/contracts/posts";
import { newId } from "@/lib/ids";
import { log } from "@/lib/log";
import { assertBrandHasContext, assertBriefLongEnough } from "./check-brief";
import { moderateContent, moderationError } from "./moderate-content";
import { toPostView } from "./post-view";
import { type Draft, type DraftStreamHandlers, writeDraft } from "./write-draft";

async function assertBriefAllowed({
  input,
  brand,
  choice,
  requestId,
}: {
  input: GeneratePostInput;
  brand: Brand;
  choice: TextModelChoice;
  requestId?: string;
}) {
  try {
    const flag = await moderateContent({
      stage: "brief",
      content: {
        texts: [
          input.topic,
          input.toneOverride ?? "",
          ...(input.assets ?? []).map((asset) => asset.description ?? ""),
        ],
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
}

/** The checks before any writing, in DESIGN §5's order: brief length, brand context, brief moderation. */
export async function checkBrief({
  brand,
  input,
  choice = chooseTextModel(),
  requestId,
}: {
  brand: Brand;
  input: GeneratePostInput;
  choice?: TextModelChoice;
  requestId?: string;
}) {
  assertBriefLongEnough(input.topic);
  assertBrandHasContext(brand);
  await assertBriefAllowed({ input, brand, choice, requestId });
}

/** The model's draft for a checked brief, repaired to the channel rules and moderated (not saved). */
export async function writePostDraft({
  brand,
  input,
  choice = chooseTextModel(),
  requestId,
  signal,
  stream,
}: {
  brand: Brand;
  input: GeneratePostInput;
  choice?: TextModelChoice;
  requestId?: string;
  signal?: AbortSignal;
  stream?: DraftStreamHandlers;
}): Promise<Draft & { seed: number }> {
  const seed = input.seed ?? randomInt(2 ** 31 - 1);
  const rules = CHANNEL_RULES[input.channel];
  const draft = await writeDraft({
    choice,
    system: buildBrandPrompt(brand, { toneOverride: input.toneOverride }),
    brief: {
      channel: input.channel,
      goal: input.goal,
      topic: input.topic.trim(),
      assets: input.assets ?? [],
      captionLimit: rules.captionLimit,
      captionLimitWithMedia: rules.captionLimitWithMedia,
      maxHashtags: rules.maxHashtags,
    },
    bannedWords: brand.bannedWords,
    seed,
    requestId,
    signal,
    stream,
  });
  return { ...draft, seed };
}

/**
 * Everything in Generate post that decides the draft, without saving it: brief length, brand context,
 * brief moderation, then the model (DESIGN §5, in that order).
 */
export async function draftPost({
  brand,
  input,
  choice = chooseTextModel(),
  requestId,
}: {
  brand: Brand;
  input: GeneratePostInput;
  choice?: TextModelChoice;
  requestId?: string;
}): Promise<Draft & { seed: number }> {
  await checkBrief({ brand, input, choice, requestId });
  return writePostDraft({ brand, input, choice, requestId });
}

/** The one insert of Generate post, prepared once per database: every column is a placeholder of the same name. */
const REVIEW_COLUMNS = new Set(["reviewAction", "reviewedBy", "reviewedAt", "reviewComment"]);

const insertPost = preparedPerDb((db) =>
  db
    .insert(posts)
    .values(
      Object.fromEntries(
        Object.keys(getTableColumns(posts))
          // A new draft has no review yet: those columns keep their null default (a null placeholder
          // cannot go through a timestamp column's mapping).
          .filter((name) => !REVIEW_COLUMNS.has(name))
          .map((name) => [name, sql.placeholder(name)]),
      ) as unknown as Post,
    )
    .prepare("insert_post"),
);

/** Saves a finished draft as a new post: the one insert of Generate post, streamed or not. */
export async function savePostDraft({
  principal,
  brand,
  input,
  draft,
  requestId,
}: {
  principal: Principal;
  brand: Brand;
  input: GeneratePostInput;
  draft: Draft & { seed: number };
  requestId?: string;
}): Promise<PostView> {
  const db = await getDb();
  // Millisecond timestamps from here, so list cursors (JavaScript dates) compare exactly.
  const now = new Date();
  // Every column is set here, so the view is built from what was written, without reading it back.
  const row: Post = {
    id: newId("pst"),
    brandId: brand.id,
    createdBy: principal.userId,
    channel: input.channel,
    goal: input.goal,
    topic: input.topic.trim(),
    toneOverride: input.toneOverride || null,
    assets: input.assets ?? [],
    ...draft.content,
    status: "draft",
    seed: draft.seed,
    provider: draft.provider,
    model: draft.model,
    latencyMs: draft.latencyMs,
    inputTokens: draft.inputTokens,
    outputTokens: draft.outputTokens,
    videoUrl: null,
    reviewAction: null,
    reviewedBy: null,
    reviewedAt: null,
    reviewComment: null,
    approvedHash: null,
    createdAt: now,
    updatedAt: now,
  };
  await insertPost(db).execute(row);
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

/**
 * Generate post: the caller's brand (loaded by the caller, alongside its rate limit), a draft, and only then
 * one insert. Nothing is saved on any failure.
 */
export async function generatePostDraft({
  principal,
  brand,
  input,
  requestId,
}: {
  principal: Principal;
  brand: Brand;
  input: GeneratePostInput;
  requestId?: string;
}): Promise<PostView> {
  const draft = await draftPost({ brand, input, requestId });
  return savePostDraft({ principal, brand, input, draft, requestId });
}
