import { randomInt } from "node:crypto";
import { and, eq, getTableColumns, sql } from "drizzle-orm";
import { getDb, preparedPerDb } from "@/db/client";
import { type Brand, type Post, posts } from "@/db/schema";
import { chooseTextModel, type TextModelChoice } from "@/lib/ai/model-choice";
import { ModerationUnavailableError } from "@/lib/ai/moderation";
import type { Principal } from "@/lib/auth/authenticate";
import { assertBrandLanguage } from "@/lib/brands/brand-languages";
import { buildBrandPrompt } from "@/lib/brands/brand-prompt";
import type { LearnedFrom } from "@/lib/contracts/learning";
import {
  CHANNEL_RULES,
  type GeneratedPostView,
  type GeneratePostInput,
  type PostView,
} from "@/lib/contracts/posts";
import { ApiError, notFound } from "@/lib/errors/api-error";
import { newId } from "@/lib/ids";
import { log } from "@/lib/log";
import { assertBrandHasContext, assertBriefLongEnough, assertModelWrites } from "./check-brief";
import { dropDraftImages, queueDraftImages, withDraftImages } from "./draft-images";
import { learningFor } from "./learn-from-results";
import { moderateContent, moderationError } from "./moderate-content";
import { toSignedPostView } from "./post-view";
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

/** The languages a request writes: those asked for (each one of the brand's), else the brand's main one. */
export function requestedLanguages(brand: Brand, input: GeneratePostInput): string[] {
  if (!input.languages) return [brand.language];
  input.languages.forEach((tag, index) => {
    assertBrandLanguage(brand, tag, `languages.${index}`);
  });
  return input.languages;
}

/**
 * The checks before any writing, in DESIGN §5's order: brief length, brand context, the languages the
 * model can write (DESIGN §11), brief moderation.
 */
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
  const languages = requestedLanguages(brand, input);
  assertBriefLongEnough(input.topic);
  assertBrandHasContext(brand);
  assertModelWrites(choice, languages);
  if (input.groupId) await assertGroupOfBrand(brand.id, input.groupId);
  await assertBriefAllowed({ input, brand, choice, requestId });
  return languages;
}

/** A draft as Generate post saves it: the model's content, its variant seed, its language, what it learned from. */
export type WrittenDraft = Draft & { seed: number; language: string; learnedFrom: LearnedFrom | null };

/**
 * The model's draft for a checked brief, repaired to the channel rules and moderated (not saved). Unless the
 * request turns it off, the channel's best posts go into the prompt as examples (issue 41).
 */
export async function writePostDraft({
  brand,
  input,
  language = brand.language,
  choice = chooseTextModel(),
  requestId,
  signal,
  stream,
}: {
  brand: Brand;
  input: GeneratePostInput;
  /** The language to write in: one of the brand's (DESIGN §11). */
  language?: string;
  choice?: TextModelChoice;
  requestId?: string;
  signal?: AbortSignal;
  stream?: DraftStreamHandlers;
}): Promise<WrittenDraft> {
  const seed = input.seed ?? randomInt(2 ** 31 - 1);
  const rules = CHANNEL_RULES[input.channel];
  const { examples, learnedFrom } = await learningFor(brand, input.channel, input.learnFromResults ?? true);
  const draft = await writeDraft({
    choice,
    system: buildBrandPrompt(brand, { toneOverride: input.toneOverride, language }),
    brief: {
      channel: input.channel,
      goal: input.goal,
      topic: input.topic.trim(),
      assets: input.assets ?? [],
      captionLimit: rules.captionLimit,
      captionLimitWithMedia: rules.captionLimitWithMedia,
      maxHashtags: rules.maxHashtags,
      language,
    },
    examples,
    bannedWords: brand.bannedWords,
    seed,
    requestId,
    signal,
    stream,
  });
  return { ...draft, seed, language, learnedFrom };
}

/** draftPosts for the first requested language only (the brand's main one by default). */
export async function draftPost(options: Parameters<typeof draftPosts>[0]) {
  return (await draftPosts(options))[0];
}

/**
 * Everything in Generate post that decides the draft, without saving it: brief length, brand context,
 * brief moderation, then the model (DESIGN §5, in that order).
 */
export async function draftPosts({
  brand,
  input,
  choice = chooseTextModel(),
  requestId,
}: {
  brand: Brand;
  input: GeneratePostInput;
  choice?: TextModelChoice;
  requestId?: string;
}): Promise<WrittenDraft[]> {
  const languages = await checkBrief({ brand, input, choice, requestId });
  // The same seed in every language, so one seed names one variant of the whole group.
  const seed = input.seed ?? randomInt(2 ** 31 - 1);
  return Promise.all(
    languages.map((language) =>
      writePostDraft({ brand, input: { ...input, seed }, language, choice, requestId }),
    ),
  );
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

/** A post group of this brand that new drafts may join (regenerating one language), else 404. */
async function assertGroupOfBrand(brandId: string, groupId: string) {
  const db = await getDb();
  const [found] = await db
    .select({ id: posts.id })
    .from(posts)
    .where(and(eq(posts.groupId, groupId), eq(posts.brandId, brandId)))
    .limit(1);
  if (!found) throw notFound("Post group");
}

/**
 * Saves finished drafts as new posts, one per language, in one post group (the request's groupId, else the
 * first new post's id): the inserts of Generate post, streamed or not. All or none are saved.
 */
export async function savePostDrafts({
  principal,
  brand,
  input,
  drafts,
  requestId,
}: {
  principal: Principal;
  brand: Brand;
  input: GeneratePostInput;
  drafts: WrittenDraft[];
  requestId?: string;
}): Promise<PostView[]> {
  const db = await getDb();
  // Millisecond timestamps from here, so list cursors (JavaScript dates) compare exactly.
  const now = new Date();
  const ids = drafts.map(() => newId("pst"));
  const groupId = input.groupId ?? ids[0];
  // Every column is set here, so the view is built from what was written, without reading it back.
  // Every image item arrives with an image: its branded card now, the model's in the background.
  const rows = await withDraftImages(
    principal,
    brand,
    drafts.map((draft, index) => postRow({ id: ids[index], groupId, principal, brand, input, draft, now })),
  );
  // One statement either way: all languages are saved, or none.
  try {
    if (rows.length === 1) await insertPost(db).execute(rows[0]);
    else await db.insert(posts).values(rows);
  } catch (error) {
    await dropDraftImages(rows);
    throw error;
  }
  await queueDraftImages(rows);
  for (const row of rows) {
    log.info("post_generated", {
      requestId,
      postId: row.id,
      brandId: brand.id,
      language: row.language,
      provider: row.provider,
      model: row.model,
      latencyMs: row.latencyMs,
    });
  }
  // Signed URLs of the images the drafts arrive with (no query: a new draft has no video).
  return Promise.all(rows.map((row) => toSignedPostView(row)));
}

function postRow({
  id,
  groupId,
  principal,
  brand,
  input,
  draft,
  now,
}: {
  id: string;
  groupId: string;
  principal: Principal;
  brand: Brand;
  input: GeneratePostInput;
  draft: WrittenDraft;
  now: Date;
}): Post {
  return {
    id,
    groupId,
    language: draft.language,
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
    learnedFrom: draft.learnedFrom,
    videoUrl: null,
    reviewAction: null,
    reviewedBy: null,
    reviewedAt: null,
    reviewComment: null,
    approvedHash: null,
    createdAt: now,
    updatedAt: now,
  };
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
}): Promise<GeneratedPostView> {
  const drafts = await draftPosts({ brand, input, requestId });
  const versions = await savePostDrafts({ principal, brand, input, drafts, requestId });
  return { ...versions[0], versions };
}
