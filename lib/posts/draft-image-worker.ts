import "server-only";
import { APICallError, RetryError } from "ai";
import { eq } from "drizzle-orm";
import type { Job, PgBoss } from "pg-boss";
import { getDb } from "@/db/client";
import { brands, type MediaImageJob, type MediaPlan, posts } from "@/db/schema";
import { log } from "@/lib/log";
import { getMediaStorage } from "@/lib/media/storage";
import { getQueue, trackHandler } from "@/lib/queue/boss";
import { countRun, enqueueInSpan, runInSpan, type TracedJob } from "@/lib/queue/job-spans";
import type { QueueWorker } from "@/lib/queue/workers";
import { applyContentEdit } from "./apply-content-edit";
import { modelItemImage, newImageKey } from "./media-images";

export const DRAFT_IMAGE_QUEUE = "draft-image";

/** A new draft's image item, named by the card it started with: the job replaces that card, and only it. */
export type DraftImageJob = { postId: string; cardKey: string } & TracedJob;

type Item = MediaPlan["items"][number];
type Waiting = (item: Item) => boolean;

async function ensureDraftImageQueue(boss: PgBoss) {
  // A failure is shown on the item (the card stays) and Generate tries again, at the caller's cost. The one
  // retry is for a worker that died mid-run: its job expires, and the retry picks up the `generating` item.
  await boss.createQueue(DRAFT_IMAGE_QUEUE, { retryLimit: 1, retryDelay: 5, expireInSeconds: 300 });
}

export async function enqueueDraftImage(job: DraftImageJob) {
  const boss = await getQueue();
  await ensureDraftImageQueue(boss);
  return enqueueInSpan(DRAFT_IMAGE_QUEUE, { "brand_studio.post_id": job.postId }, async (trace) => {
    const jobId = await boss.send(DRAFT_IMAGE_QUEUE, { ...job, trace });
    if (!jobId) throw new Error("The queue did not accept the image job.");
    return jobId;
  });
}

/**
 * Changes the item that still holds `cardKey` and whose job is still `waiting` (the post row locked).
 * A new image goes through the same rule as any image change (applyContentEdit: an approved or scheduled
 * post goes back to review where the brand requires approval); a state alone is not content. Answers
 * false when no such item is left (the image was replaced or removed, or the post is gone).
 */
async function settleItem(
  { postId, cardKey }: DraftImageJob,
  waiting: Waiting,
  next: { imageJob: MediaImageJob; imageKey?: string },
) {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const [current] = await tx.select().from(posts).where(eq(posts.id, postId)).for("update");
    const index = current?.mediaPlan.items.findIndex((item) => item.imageKey === cardKey && waiting(item));
    if (!current || index === undefined || index < 0) return false;
    const items = current.mediaPlan.items.map((item, i) => (i === index ? { ...item, ...next } : item));
    const mediaPlan = { ...current.mediaPlan, items };
    const status = next.imageKey
      ? await applyContentEdit(tx, current, { ...current, mediaPlan })
      : current.status;
    await tx
      .update(posts)
      .set({ mediaPlan, status, ...(next.imageKey ? { updatedAt: new Date() } : {}) })
      .where(eq(posts.id, postId));
    return true;
  });
}

const isState =
  (...states: MediaImageJob["state"][]): Waiting =>
  (item) =>
    !!item.imageJob && states.includes(item.imageJob.state);

/** Why the model's image failed, for the item (no secrets: the status code, not the provider's answer). */
function failureReason(error: unknown) {
  const cause = RetryError.isInstance(error) ? error.lastError : error;
  const status = APICallError.isInstance(cause) && cause.statusCode ? ` (HTTP ${cause.statusCode})` : "";
  return `The image model did not return a usable image${status}. The card stays; press Generate to try again.`;
}

/** One new draft's item: the image model's picture in place of its card, or the card kept and why. */
export async function runDraftImage(job: DraftImageJob) {
  if (!(await settleItem(job, isState("pending", "generating"), { imageJob: { state: "generating" } }))) {
    return "superseded" as const;
  }
  const db = await getDb();
  const [row] = await db
    .select({ post: posts, brand: brands })
    .from(posts)
    .innerJoin(brands, eq(brands.id, posts.brandId))
    .where(eq(posts.id, job.postId));
  const item = row?.post.mediaPlan.items.find((entry) => entry.imageKey === job.cardKey);
  if (!row || !item) return "superseded" as const;
  const storage = getMediaStorage();
  let key: string;
  try {
    const jpeg = await modelItemImage(row.brand, item, job.postId);
    key = newImageKey(job.postId);
    await storage.put(key, jpeg, "image/jpeg");
  } catch (error) {
    log.warn("draft_image_failed", { postId: job.postId, error });
    const failed = { state: "failed", error: failureReason(error) } as const;
    await settleItem(job, isState("generating"), { imageJob: failed });
    return "failed" as const;
  }
  if (
    !(await settleItem(job, isState("generating"), {
      imageKey: key,
      imageJob: { state: "ready", card: job.cardKey },
    }))
  ) {
    // The card was replaced or removed meanwhile: that change wins, and this picture is no one's.
    await storage.remove(key).catch(() => {});
    return "superseded" as const;
  }
  await storage.remove(job.cardKey).catch((error) => log.warn("media_image_not_removed", { error }));
  return "ready" as const;
}

/** The job could not be queued or broke: the item says so rather than waiting for ever (the card stays). */
export async function failDraftImage(job: DraftImageJob) {
  const error = "The image could not be made this time. The card stays; press Generate to try again.";
  await settleItem(job, isState("pending", "generating"), { imageJob: { state: "failed", error } });
}

const RUN_OUTCOME = { ready: "succeeded", failed: "failed", superseded: "skipped" } as const;

function runJob(job: Job<DraftImageJob>) {
  return runInSpan(DRAFT_IMAGE_QUEUE, job, { "brand_studio.post_id": job.data.postId }, async (span) => {
    try {
      countRun(DRAFT_IMAGE_QUEUE, span, RUN_OUTCOME[await runDraftImage(job.data)]);
    } catch (error) {
      log.error("draft_image_broke", { postId: job.data.postId, error });
      countRun(DRAFT_IMAGE_QUEUE, span, "failed");
      await failDraftImage(job.data).catch(() => {});
    }
  });
}

export const draftImageWorker: QueueWorker = {
  name: DRAFT_IMAGE_QUEUE,
  async start(boss) {
    await ensureDraftImageQueue(boss);
    await boss.work<DraftImageJob>(DRAFT_IMAGE_QUEUE, { pollingIntervalSeconds: 1 }, async (jobs) => {
      for (const job of jobs) await trackHandler(() => runJob(job));
    });
  },
};
