import { setTimeout as sleep } from "node:timers/promises";
import { and, eq, isNull } from "drizzle-orm";
import { getDb } from "@/db/client";
import { type Brand, type VideoJob, videoJobs } from "@/db/schema";
import { getEnv } from "@/lib/config";
import { log } from "@/lib/log";
import type { RenderResult } from "./provider";
import { getCircuitState } from "./providers/circuit";
import { storeProviderResult } from "./providers/fetch-result";
import { waitOrHint } from "./providers/provider-hints";
import { ProviderError } from "./providers/provider-http";
import type { HostedVideoProvider, ProviderPoll } from "./providers/types";

/** A hosted job that the provider itself failed: the job ends `failed` with these words, no retry. */
export class ProviderJobFailed extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = "ProviderJobFailed";
  }
}

const LABELS: Record<string, string> = { heygen: "HeyGen", did: "D-ID" };
/** Polls that may fail in a row (5xx, timeouts) before the attempt gives up and pg-boss retries it. */
const MAX_POLL_FAILURES = 5;
/** 429s in a row at submit before the attempt gives up. */
const MAX_RATE_LIMITED = 10;

/** The next wait: the configured interval, growing 1.25× per quiet poll up to 4×, ± 25 % jitter. */
export function nextPollDelay(quietPolls: number, base = getEnv().PROVIDER_POLL_INTERVAL_MS) {
  const grown = base * Math.min(4, 1.25 ** quietPolls);
  return Math.round(grown * (0.75 + Math.random() * 0.5));
}

/** The public base URL a provider may call back to, if we know one. */
function webhookUrl(provider: string) {
  const base = getEnv().APP_URL;
  return base ? `${base}/api/webhooks/providers/${provider}` : null;
}

/** Stores the provider's id on the job before anything waits on it; false if this attempt lost the job. */
async function recordProviderJob(
  videoJobId: string,
  attempt: number,
  provider: string,
  providerJobId: string,
) {
  const db = await getDb();
  const rows = await db
    .update(videoJobs)
    .set({ provider, providerJobId, providerSubmittedAt: new Date(), updatedAt: new Date() })
    .where(
      and(
        eq(videoJobs.id, videoJobId),
        eq(videoJobs.attempts, attempt),
        eq(videoJobs.status, "running"),
        isNull(videoJobs.providerJobId),
      ),
    )
    .returning({ id: videoJobs.id });
  return rows.length > 0;
}

async function submitOnce(options: {
  provider: HostedVideoProvider;
  job: VideoJob;
  brand: Brand;
  attempt: number;
  signal: AbortSignal;
}) {
  const { provider, job, brand, attempt, signal } = options;
  for (let limited = 0; ; limited++) {
    // While the breaker is open nothing is sent; the job waits for the cool-down instead of failing.
    const circuit = await getCircuitState(provider.name);
    if (circuit.state === "open") {
      log.info("video_provider_circuit_wait", {
        jobId: job.id,
        provider: provider.name,
        seconds: circuit.retryAfterSeconds,
      });
      await sleep(circuit.retryAfterSeconds * 1000, undefined, { signal });
    }
    try {
      const providerJobId = await provider.submit({
        jobId: job.id,
        script: job.script,
        brief: job.brief,
        mode: job.mode,
        brand: { name: brand.name, language: brand.language, avatarProviderRef: brand.avatarProviderRef },
        webhookUrl: webhookUrl(provider.name),
      });
      log.info("video_provider_submitted", {
        jobId: job.id,
        provider: provider.name,
        providerJobId,
        attempt,
      });
      return providerJobId;
    } catch (error) {
      if (error instanceof ProviderError && error.status === 429 && limited < MAX_RATE_LIMITED) {
        const seconds = error.retryAfterSeconds ?? 5;
        log.info("video_provider_rate_limited", {
          jobId: job.id,
          provider: provider.name,
          retryAfterSeconds: seconds,
        });
        await sleep(seconds * 1000, undefined, { signal });
        continue;
      }
      if (error instanceof ProviderError && !error.transient) {
        throw new ProviderJobFailed(
          `${LABELS[provider.name]} refused the video: ${error.message}. Check the script and the avatar photo, then try again.`,
          false,
        );
      }
      throw error;
    }
  }
}

async function pollUntilDone(options: {
  provider: HostedVideoProvider;
  jobId: string;
  providerJobId: string;
  signal: AbortSignal;
  onProgress: (percent: number) => void;
}): Promise<ProviderPoll> {
  const { provider, jobId, providerJobId, signal, onProgress } = options;
  let quiet = 0;
  let failures = 0;
  let lastState = "";
  let delay = nextPollDelay(0);
  for (;;) {
    // A provider webhook for this job cuts the wait short; its claim is never used, only this poll's answer.
    await waitOrHint(providerJobId, delay, signal);
    let answer: ProviderPoll;
    try {
      answer = await provider.poll(providerJobId);
      failures = 0;
    } catch (error) {
      if (error instanceof ProviderError && error.status === 429) {
        delay = (error.retryAfterSeconds ?? 5) * 1000;
        log.info("video_provider_rate_limited", {
          jobId,
          provider: provider.name,
          retryAfterSeconds: error.retryAfterSeconds,
        });
        continue;
      }
      if (error instanceof ProviderError && error.transient && ++failures < MAX_POLL_FAILURES) {
        log.warn("video_provider_poll_failed", { jobId, provider: provider.name, failures, error });
        delay = nextPollDelay(failures + quiet);
        continue;
      }
      throw error;
    }
    if (answer.state === "succeeded" || answer.state === "failed") return answer;
    onProgress(answer.state === "running" ? Math.max(10, answer.progress ?? 50) : 5);
    quiet = answer.state === lastState ? quiet + 1 : 0;
    lastState = answer.state;
    delay = nextPollDelay(quiet);
  }
}

/**
 * Makes an avatar video with a hosted provider. The provider's id is stored on the job before the worker
 * waits: a later attempt (this worker died, or an attempt failed on a transient error) resumes polling that
 * id and never submits the job a second time.
 */
export async function runHostedJob(options: {
  provider: HostedVideoProvider;
  job: VideoJob;
  brand: Brand;
  attempt: number;
  signal: AbortSignal;
  onProgress: (percent: number) => void;
}): Promise<RenderResult> {
  const { provider, job, brand, attempt, signal, onProgress } = options;
  const label = LABELS[provider.name];
  if (job.provider && job.provider !== provider.name) {
    throw new ProviderJobFailed(
      `This job was started with ${LABELS[job.provider] ?? job.provider}, which is no longer configured.`,
      true,
    );
  }
  if (brand.avatarProvider !== provider.name || !brand.avatarProviderRef) {
    throw new ProviderJobFailed(
      `The brand's avatar is not uploaded to ${label} yet. Upload the avatar again, then make the video.`,
      true,
    );
  }
  let providerJobId = job.providerJobId;
  if (providerJobId) {
    log.info("video_provider_resumed", { jobId: job.id, provider: provider.name, providerJobId, attempt });
  } else {
    providerJobId = await submitOnce({ provider, job, brand, attempt, signal });
    if (!(await recordProviderJob(job.id, attempt, provider.name, providerJobId))) {
      throw new Error("The job was canceled or taken over while it was being submitted.");
    }
  }
  onProgress(5);
  const answer = await pollUntilDone({ provider, jobId: job.id, providerJobId, signal, onProgress });
  if (answer.state === "failed") {
    throw new ProviderJobFailed(
      `${label} could not make this video: ${answer.error ?? "no reason given"}. Check the script and the avatar photo, then try again.`,
      true,
    );
  }
  onProgress(90);
  return storeProviderResult({ provider: provider.name, jobId: job.id, result: answer, signal });
}

/** Best effort: tells the provider to stop a job we canceled, where it can. */
export async function cancelAtProvider(provider: HostedVideoProvider, videoJobId: string) {
  if (!provider.cancel) return;
  const db = await getDb();
  const [row] = await db
    .select({ status: videoJobs.status, providerJobId: videoJobs.providerJobId })
    .from(videoJobs)
    .where(eq(videoJobs.id, videoJobId));
  if (row?.status !== "canceled" || !row.providerJobId) return;
  await provider.cancel(row.providerJobId).catch((error) => {
    log.warn("video_provider_cancel_failed", { jobId: videoJobId, provider: provider.name, error });
  });
}
