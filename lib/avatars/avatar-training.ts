import { buffer } from "node:stream/consumers";
import { and, eq } from "drizzle-orm";
import type { Job, PgBoss } from "pg-boss";
import { getDb } from "@/db/client";
import { brands } from "@/db/schema";
import { brandChanged } from "@/lib/auth/membership-events";
import { log } from "@/lib/log";
import { getMediaStorage } from "@/lib/media/storage";
import { getQueue, trackHandler } from "@/lib/queue/boss";
import { countRun, enqueueInSpan, runInSpan, type TracedJob } from "@/lib/queue/job-spans";
import type { QueueWorker } from "@/lib/queue/workers";
import { findAvatarProblem, prepareAvatarFrame } from "./avatar-frame";
import { avatarUploadFolder } from "./avatar-keys";
import { uploadAvatarToProvider } from "./avatar-provider-upload";

export const AVATAR_TRAINING_QUEUE = "avatar-training";
/** Jobs that used up their retries (or whose worker died on the last one) land here to be marked failed. */
const AVATAR_TRAINING_FAILED_QUEUE = "avatar-training-failed";

/** What avatarTrainingEndsAt promises: queue pickup plus the local trainer, with room to spare. */
export const AVATAR_TRAINING_ESTIMATE_SECONDS = 10;
/** How often a client should look at the brand again while its avatar trains. */
export const AVATAR_POLL_SECONDS = 2;

export type AvatarTrainingJob = { brandId: string; imageKey: string } & TracedJob;

const GAVE_UP_MESSAGE =
  "Preparing the avatar failed several times. Upload the image again; if it keeps failing, try another image.";

export async function ensureAvatarQueues(boss: PgBoss) {
  await boss.createQueue(AVATAR_TRAINING_FAILED_QUEUE, {
    retryLimit: 5,
    retryBackoff: true,
    expireInSeconds: 60,
  });
  await boss.createQueue(AVATAR_TRAINING_QUEUE, {
    retryLimit: 3,
    retryBackoff: true,
    retryDelay: 2,
    expireInSeconds: 120,
    deadLetter: AVATAR_TRAINING_FAILED_QUEUE,
  });
}

export async function enqueueAvatarTraining(job: AvatarTrainingJob) {
  const boss = await getQueue();
  await ensureAvatarQueues(boss);
  return enqueueInSpan(AVATAR_TRAINING_QUEUE, { "brand_studio.brand_id": job.brandId }, async (trace) => {
    const jobId = await boss.send(AVATAR_TRAINING_QUEUE, { ...job, trace });
    if (!jobId) throw new Error("The queue did not accept the avatar training job.");
    return jobId;
  });
}

/**
 * Settles a training, but only if the brand is still training this very upload: a newer upload
 * supersedes it, and its result must not overwrite the newer one.
 */
async function settleTraining(
  { brandId, imageKey }: AvatarTrainingJob,
  outcome:
    | {
        avatarStatus: "ready";
        avatarFramesKey: string;
        avatarProvider: string | null;
        avatarProviderRef: string | null;
      }
    | { avatarStatus: "failed"; avatarError: string },
) {
  const db = await getDb();
  const settled = await db
    .update(brands)
    .set({
      avatarFramesKey: null,
      avatarError: null,
      avatarProvider: null,
      avatarProviderRef: null,
      ...outcome,
      avatarTrainingEndsAt: null,
      updatedAt: new Date(),
    })
    .where(
      and(eq(brands.id, brandId), eq(brands.avatarImageKey, imageKey), eq(brands.avatarStatus, "training")),
    )
    .returning({ id: brands.id });
  brandChanged(brandId);
  return settled.length > 0;
}

async function isTraining({ brandId, imageKey }: AvatarTrainingJob) {
  const db = await getDb();
  const [brand] = await db
    .select({ imageKey: brands.avatarImageKey, status: brands.avatarStatus })
    .from(brands)
    .where(eq(brands.id, brandId));
  return brand?.imageKey === imageKey && brand.status === "training";
}

/**
 * The local trainer: checks that the upload can serve as an avatar and prepares the frame that the
 * video renderer overlays (512×512 PNG, circular, transparent around the circle).
 */
export async function trainAvatar(job: AvatarTrainingJob) {
  if (!(await isTraining(job))) return "superseded" as const;
  const storage = getMediaStorage();
  const source = await buffer(await storage.read(job.imageKey));
  const problem = await findAvatarProblem(source);
  if (problem) {
    await settleTraining(job, { avatarStatus: "failed", avatarError: problem });
    log.info("avatar_training_failed", { brandId: job.brandId, reason: problem });
    return "failed" as const;
  }
  // With a hosted provider the photo is uploaded there too; training ends when the provider accepts it.
  const uploaded = await uploadAvatarToProvider(source, job.imageKey);
  if (uploaded.status === "refused") {
    await settleTraining(job, { avatarStatus: "failed", avatarError: uploaded.reason });
    log.info("avatar_training_failed", { brandId: job.brandId, reason: uploaded.reason });
    return "failed" as const;
  }
  const frameKey = `${avatarUploadFolder(job.imageKey)}/frame.png`;
  await storage.put(frameKey, await prepareAvatarFrame(source));
  const ready = {
    avatarStatus: "ready",
    avatarFramesKey: frameKey,
    avatarProvider: uploaded.status === "uploaded" ? uploaded.provider : null,
    avatarProviderRef: uploaded.status === "uploaded" ? uploaded.ref : null,
  } as const;
  if (!(await settleTraining(job, ready))) {
    // A newer upload replaced this one while it trained; its files are no one's now.
    await storage.remove(avatarUploadFolder(job.imageKey));
    log.info("avatar_training_superseded", { brandId: job.brandId });
    return "superseded" as const;
  }
  log.info("avatar_training_ready", { brandId: job.brandId });
  return "ready" as const;
}

/** The job ran out of retries: the brand's avatar is failed, so video answers brand_not_ready, not training forever. */
export async function giveUpAvatarTraining(job: AvatarTrainingJob) {
  if (await settleTraining(job, { avatarStatus: "failed", avatarError: GAVE_UP_MESSAGE })) {
    log.warn("avatar_training_gave_up", { brandId: job.brandId });
  }
}

/** How a training run ended, as brand_studio_job_runs_total counts it. */
const RUN_OUTCOME = { ready: "succeeded", failed: "failed", superseded: "skipped" } as const;

/** One training attempt in a span under the upload's trace, its outcome counted; a throw is retried by pg-boss. */
function runTraining(job: Job<AvatarTrainingJob>) {
  return runInSpan(
    AVATAR_TRAINING_QUEUE,
    job,
    { "brand_studio.brand_id": job.data.brandId },
    async (span) => {
      try {
        const result = await trainAvatar(job.data);
        countRun(AVATAR_TRAINING_QUEUE, span, RUN_OUTCOME[result]);
        return result;
      } catch (error) {
        countRun(AVATAR_TRAINING_QUEUE, span, "retried");
        throw error;
      }
    },
  );
}

export const avatarTrainingWorker: QueueWorker = {
  name: AVATAR_TRAINING_QUEUE,
  async start(boss) {
    await ensureAvatarQueues(boss);
    await boss.work<AvatarTrainingJob>(AVATAR_TRAINING_QUEUE, { pollingIntervalSeconds: 1 }, async (jobs) => {
      for (const job of jobs) await trackHandler(() => runTraining(job));
    });
    await boss.work<AvatarTrainingJob>(AVATAR_TRAINING_FAILED_QUEUE, async (jobs) => {
      for (const job of jobs) await giveUpAvatarTraining(job.data);
    });
  },
};
