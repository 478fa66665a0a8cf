import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import type { PgBoss } from "pg-boss";
import { getDb } from "@/db/client";
import { brands, posts, videoJobs } from "@/db/schema";
import { recordActivity } from "@/lib/activity/record-activity";
import type { Principal } from "@/lib/auth/authenticate";
import { getBrandForPrincipal } from "@/lib/brands/get-brand";
import { defaultVideoAspectRatio, type GenerateVideoInput, SCRIPT_MIN_CHARS } from "@/lib/contracts/video";
import { ApiError, notFound } from "@/lib/errors/api-error";
import { newId } from "@/lib/ids";
import { log } from "@/lib/log";
import { getQueue } from "@/lib/queue/boss";
import { assertBrandReadyForVideo } from "./assert-brand-ready";
import { getHostedProvider, getVideoProvider } from "./providers";
import { hostedProviderHealth } from "./providers/provider-health";
import { scriptFromCaption } from "./script";
import { enqueueRender, ensureVideoQueues } from "./video-queue";
import { assertVideoQuotaLeft, quotaMonth } from "./video-quota";

const QUEUE_OPEN_TIMEOUT_MS = 3000;

const providerUnavailable = (message: string, retryAfterSeconds?: number) =>
  new ApiError(
    "provider_unavailable",
    `${message} No job was created and nothing was counted; try again ${retryAfterSeconds ? `in about ${retryAfterSeconds} seconds` : "shortly"}.`,
    retryAfterSeconds
      ? { headers: { "Retry-After": String(retryAfterSeconds) }, details: { retryAfterSeconds } }
      : {},
  );

/** The script of a post-based job (the post's caption, as words a video can say) and the post's channel. */
async function scriptOfPost({ brandId, postId }: { brandId: string; postId: string }) {
  const db = await getDb();
  const [post] = await db
    .select({ caption: posts.caption, channel: posts.channel })
    .from(posts)
    .where(and(eq(posts.id, postId), eq(posts.brandId, brandId)));
  if (!post) throw notFound("Post");
  const script = scriptFromCaption(post.caption);
  if (script.length < SCRIPT_MIN_CHARS) {
    throw new ApiError(
      "invalid_request",
      "The post's caption has too few words for a video; send a script.",
      {
        details: [{ path: "postId", message: "The caption is too short for a video." }],
      },
    );
  }
  return { script, channel: post.channel };
}

/** The brief of the reference video, which must be a finished video of the same brand. */
async function referenceBrief({ brandId, referenceVideoId }: { brandId: string; referenceVideoId: string }) {
  const db = await getDb();
  const [reference] = await db
    .select({ status: videoJobs.status, brief: videoJobs.brief })
    .from(videoJobs)
    .where(and(eq(videoJobs.id, referenceVideoId), eq(videoJobs.brandId, brandId)));
  if (!reference) throw notFound("Reference video");
  if (reference.status !== "succeeded") {
    throw new ApiError(
      "invalid_request",
      "The reference video must be one of this brand's finished videos.",
      {
        details: [{ path: "referenceVideoId", message: `That job is ${reference.status}, not succeeded.` }],
      },
    );
  }
  return reference.brief;
}

/** The started queue with the video queues in place, or null when it cannot be reached now. */
async function openQueue(): Promise<PgBoss | null> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("The queue did not answer in time.")), QUEUE_OPEN_TIMEOUT_MS);
  });
  try {
    return await Promise.race([
      (async () => {
        const boss = await getQueue();
        await ensureVideoQueues(boss);
        return boss;
      })(),
      timeout,
    ]);
  } catch (error) {
    log.error("video_queue_unavailable", { error });
    return null;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * POST /api/video/jobs. Checks run in the contract's order: brand (404), readiness, quota, provider.
 * The quota is counted and the job row and its queue entry are written in one transaction, with the
 * brand row locked, so concurrent requests cannot overrun the quota and a failure leaves nothing behind.
 */
export async function createVideoJob({
  principal,
  input,
}: {
  principal: Principal;
  input: GenerateVideoInput;
}) {
  const now = new Date();
  const brand = await getBrandForPrincipal({ principal, brandId: input.brandId, permission: "video.create" });
  const source = input.postId
    ? await scriptOfPost({ brandId: brand.id, postId: input.postId })
    : { script: input.script as string, channel: null };
  const { script } = source;
  const aspectRatio = input.aspectRatio ?? defaultVideoAspectRatio(source.channel);
  const reusedBrief = input.referenceVideoId
    ? await referenceBrief({ brandId: brand.id, referenceVideoId: input.referenceVideoId })
    : null;
  const brief = input.brief ?? reusedBrief;
  // Avatar videos go to the hosted provider VIDEO_PROVIDER names, if any (see run-video-job.ts).
  const hosted = input.mode === "avatar" ? await getHostedProvider() : null;
  assertBrandReadyForVideo({ brand, mode: input.mode, now, hostedProvider: hosted?.name });

  // Both are looked at before the transaction (the queue must be ready before one opens, see
  // ensureVideoQueues), and their verdicts given after the quota check, in the contract's order.
  const provider = await getVideoProvider();
  const [health, boss] = await Promise.all([
    hosted ? hostedProviderHealth(hosted.name) : provider.checkHealth(),
    openQueue(),
  ]);
  const estimatedSeconds = hosted
    ? hosted.estimateSeconds(script)
    : provider.estimateSeconds({ script, brief });
  const jobId = newId("vjb");
  const queueJobId = randomUUID();

  const db = await getDb();
  await db.transaction(async (tx) => {
    const [locked] = await tx
      .select({ monthlyVideoQuota: brands.monthlyVideoQuota })
      .from(brands)
      .where(eq(brands.id, brand.id))
      .for("update");
    if (!locked) throw notFound("Brand");
    await assertVideoQuotaLeft({ tx, brandId: brand.id, brandQuota: locked.monthlyVideoQuota, now });
    if (!health.ok) {
      log.warn("video_provider_unhealthy", {
        provider: hosted?.name ?? provider.name,
        reason: health.reason,
      });
      throw providerUnavailable("The video provider cannot take jobs right now.", health.retryAfterSeconds);
    }
    if (!boss) throw providerUnavailable("The job queue cannot take jobs right now.");
    await tx.insert(videoJobs).values({
      id: jobId,
      brandId: brand.id,
      postId: input.postId ?? null,
      createdBy: principal.userId,
      mode: input.mode,
      aspectRatio,
      script,
      brief,
      referenceVideoId: input.referenceVideoId ?? null,
      captions: input.captions ?? true,
      status: "queued",
      estimatedSeconds,
      quotaMonth: quotaMonth(now),
      queueJobId,
      createdAt: now,
      updatedAt: now,
    });
    await recordActivity(tx, {
      brandId: brand.id,
      actorId: principal.userId,
      action: "video.created",
      subjectType: "video",
      subjectId: jobId,
      details: { mode: input.mode, aspectRatio, ...(input.postId ? { postId: input.postId } : {}) },
    });
    try {
      await enqueueRender({ boss, tx, queueJobId, videoJobId: jobId, estimatedSeconds });
    } catch (error) {
      log.error("video_enqueue_failed", { jobId, error });
      throw providerUnavailable("The job queue did not accept the job.");
    }
  });
  log.info("video_job_created", {
    jobId,
    brandId: brand.id,
    mode: input.mode,
    aspectRatio,
    estimatedSeconds,
  });
  return { jobId, status: "queued" as const, estimatedSeconds };
}
