import type { Job, JobWithMetadata } from "pg-boss";
import { log } from "@/lib/log";
import { countRun, runInSpan } from "@/lib/queue/job-spans";
import { metrics } from "@/lib/telemetry/metrics";
import { setSpanAttributes } from "@/lib/telemetry/tracing";
import { emitVideoEvent } from "@/lib/video/emit-video-event";
import { UnrenderableError } from "./provider";
import { getHostedProvider, getVideoProvider } from "./providers";
import { whileRendering } from "./render-cancel";
import { visualsFromPost } from "./render-visuals";
import { cancelAtProvider, ProviderJobFailed, runHostedJob } from "./run-hosted-job";
import {
  claimVideoJob,
  completeVideoJob,
  failVideoJob,
  recordVideoProgress,
  removeVideoFiles,
} from "./video-job-store";
import { VIDEO_RENDER_QUEUE, type VideoRenderJobData } from "./video-queue";

/** How often a running render checks that it still owns the job, even while its progress is quiet. */
const TICK_MS = 1000;
/** Progress is written as it comes, but not more often than this. */
const MIN_WRITE_GAP_MS = 250;

class RenderStopped extends Error {}

/**
 * Writes progress as the render reports it (at most every 250 ms) and at least once a second, and
 * notices when the job is no longer this attempt's (canceled, or retried elsewhere); then `onLost` stops
 * the render.
 */
function trackProgress(options: {
  videoJobId: string;
  attempt: number;
  initialEstimate: number;
  onLost: () => void;
}) {
  const { videoJobId, attempt, initialEstimate, onLost } = options;
  const startedAt = Date.now();
  let reported = 0;
  let lastWriteAt = 0;
  let writing: Promise<void> | null = null;

  const tick = async () => {
    const progress = Math.min(99, Math.floor(reported));
    const elapsed = (Date.now() - startedAt) / 1000;
    // From the render's own pace once it has one; until then, the estimate counted down.
    const estimatedSeconds =
      progress >= 5
        ? Math.ceil((elapsed * (100 - progress)) / progress)
        : Math.max(1, Math.ceil(initialEstimate - elapsed));
    try {
      const owned = await recordVideoProgress({ videoJobId, attempt, progress, estimatedSeconds });
      if (!owned) onLost();
    } catch (error) {
      log.warn("video_progress_write_failed", { jobId: videoJobId, error });
    }
  };
  const write = () => {
    if (writing) return;
    lastWriteAt = Date.now();
    writing = tick().finally(() => {
      writing = null;
    });
  };
  const timer = setInterval(write, TICK_MS);
  return {
    report: (percent: number) => {
      reported = Math.max(reported, percent);
      if (Date.now() - lastWriteAt >= MIN_WRITE_GAP_MS) write();
    },
    async stop() {
      clearInterval(timer);
      await writing;
    },
  };
}

type Outcome = "succeeded" | "failed" | "retried" | "stopped" | "skipped" | "discarded";

/**
 * The pg-boss handler for one render attempt, in a span that continues the trace of the request that
 * queued it (the trace context rides in the job's payload), with its outcome counted.
 */
export function runVideoRenderJob(job: Job<VideoRenderJobData>) {
  const attempt = job.retryCount + 1;
  return runInSpan(
    VIDEO_RENDER_QUEUE,
    job,
    { "brand_studio.video_job_id": job.data.videoJobId, "brand_studio.attempt": attempt },
    async (span) => {
      const started = performance.now();
      const count = (outcome: Outcome) => countRun(VIDEO_RENDER_QUEUE, span, outcome);
      try {
        const done = await runRenderAttempt(job, attempt);
        count(done.outcome);
        if (done.outcome === "succeeded" && done.durationSeconds) {
          metrics().renderRatio.observe(
            { provider: done.provider },
            (performance.now() - started) / 1000 / done.durationSeconds,
          );
          setSpanAttributes(span, { "brand_studio.video_seconds": done.durationSeconds });
        }
      } catch (error) {
        count("retried");
        throw error;
      }
    },
  );
}

async function runRenderAttempt(
  job: Job<VideoRenderJobData>,
  attempt: number,
): Promise<{ outcome: Outcome; provider?: string; durationSeconds?: number }> {
  const { videoJobId } = job.data;
  const claimed = await claimVideoJob({ videoJobId, attempt }).catch((error) => {
    log.warn("video_job_attempt_failed", { jobId: videoJobId, attempt, error });
    throw error;
  });
  if (!claimed) {
    log.info("video_job_skipped", { jobId: videoJobId, attempt, reason: "not queued or running" });
    return { outcome: "skipped" };
  }
  const { job: row, brand, post } = claimed;
  log.info("video_job_started", { jobId: videoJobId, attempt, pid: process.pid });

  const stop = new AbortController();
  const onQueueAbort = () => stop.abort(new RenderStopped("The queue took the job back."));
  job.signal.addEventListener("abort", onQueueAbort, { once: true });
  const forget = whileRendering(videoJobId, () =>
    stop.abort(new RenderStopped("The job was canceled or taken over.")),
  );
  const progress = trackProgress({
    videoJobId,
    attempt,
    initialEstimate: row.estimatedSeconds ?? 30,
    onLost: () => stop.abort(new RenderStopped("The job was canceled or taken over.")),
  });
  // Avatar videos go to the hosted provider when VIDEO_PROVIDER names one; regular videos (and every
  // video with VIDEO_PROVIDER=local) are rendered here (docs/contract-notes.md, "Video providers").
  const hosted = row.mode === "avatar" ? await getHostedProvider() : null;
  try {
    const provider = await getVideoProvider();
    const result = hosted
      ? await runHostedJob({
          provider: hosted,
          job: row,
          brand,
          attempt,
          signal: stop.signal,
          onProgress: progress.report,
        })
      : await provider.render(
          {
            jobId: videoJobId,
            attempt,
            script: row.script,
            brief: row.brief,
            mode: row.mode,
            aspectRatio: row.aspectRatio,
            brand: {
              name: brand.name,
              // The voice and the captions speak the post's language (DESIGN §11), else the brand's main one.
              language: post?.language ?? brand.language,
              primaryColor: brand.primaryColor,
              secondaryColor: brand.secondaryColor,
              avatarFramesKey: brand.avatarFramesKey,
              font: brand.font,
              logoKey: brand.logoKey,
              musicKey: brand.musicKey,
              ttsVoice: brand.ttsVoice,
            },
            captions: row.captions,
            visuals: await visualsFromPost(post),
          },
          { signal: stop.signal, onProgress: progress.report },
        );
    await progress.stop();
    if (await completeVideoJob({ videoJobId, attempt, result })) {
      log.info("video_job_succeeded", { jobId: videoJobId, attempt, pid: process.pid });
      await emitVideoEvent(videoJobId);
      return {
        outcome: "succeeded",
        provider: hosted ? hosted.name : provider.name,
        durationSeconds: result.durationSeconds ?? undefined,
      };
    }
    await removeVideoFiles(videoJobId);
    log.info("video_job_discarded", { jobId: videoJobId, attempt, reason: "canceled while finishing" });
    return { outcome: "discarded" };
  } catch (error) {
    await progress.stop();
    if (stop.signal.aborted) {
      // Nothing to retry: the job was canceled, or another attempt owns it now.
      log.info("video_job_stopped", {
        jobId: videoJobId,
        attempt,
        reason: (stop.signal.reason as Error).message,
      });
      if (hosted) await cancelAtProvider(hosted, videoJobId);
      return { outcome: "stopped" };
    }
    if (error instanceof ProviderJobFailed) {
      if (
        await failVideoJob({
          videoJobId,
          code: "generation_failed",
          message: error.message,
          retryable: error.retryable,
        })
      ) {
        await emitVideoEvent(videoJobId);
      }
      log.warn("video_job_failed", { jobId: videoJobId, attempt, error });
      return { outcome: "failed" };
    }
    if (error instanceof UnrenderableError) {
      if (await failVideoJob({ videoJobId, code: error.code, message: error.message, retryable: false })) {
        await emitVideoEvent(videoJobId);
      }
      log.warn("video_job_failed", { jobId: videoJobId, attempt, error });
      return { outcome: "failed" };
    }
    log.warn("video_job_attempt_failed", { jobId: videoJobId, attempt, error });
    // pg-boss retries with backoff; after the last attempt the dead-letter handler below ends the job.
    throw error;
  } finally {
    forget();
    job.signal.removeEventListener("abort", onQueueAbort);
  }
}

/**
 * Why the last attempt failed, in words for the job's error. pg-boss notes a dead worker or an expired
 * job itself; anything else is the renderer's own error, whose details are in the worker's log.
 */
function describeFailure(output: unknown): string {
  const record = (output ?? {}) as { message?: unknown; value?: unknown };
  const value = record.value as { message?: unknown } | string | undefined;
  const message = [record.message, value, typeof value === "object" ? value?.message : undefined].find(
    (item): item is string => typeof item === "string",
  );
  if (message && /heartbeat/i.test(message)) return "the worker rendering it stopped responding";
  if (message && /timed out|exceeded/i.test(message)) return "the render took too long";
  if (message && /shut down/i.test(message)) return "the worker was shut down";
  return "the renderer reported an error";
}

/** The dead-letter handler: a render that used up its retries ends `failed` and gives its unit back. */
export async function failExhaustedVideoJob(job: JobWithMetadata<VideoRenderJobData>) {
  const attempts = (job.sourceRetryCount ?? 0) + 1;
  const reason = describeFailure(job.sourceOutput);
  const failed = await failVideoJob({
    videoJobId: job.data.videoJobId,
    code: "generation_failed",
    message: `The video could not be made after ${attempts} attempts: ${reason}. Try again; if it keeps failing, shorten the script.`,
    retryable: true,
  });
  if (failed) {
    metrics().jobRuns.inc({ queue: VIDEO_RENDER_QUEUE, outcome: "failed" });
    log.warn("video_job_failed", { jobId: job.data.videoJobId, attempts, reason });
    await emitVideoEvent(job.data.videoJobId);
  }
}
