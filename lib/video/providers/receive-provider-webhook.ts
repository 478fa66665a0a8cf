import { and, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { videoJobs } from "@/db/schema";
import { ApiError, notFound } from "@/lib/errors/api-error";
import { log } from "@/lib/log";
import { getHostedProvider } from ".";
import { hintProviderJob } from "./provider-hints";

const MAX_BODY_BYTES = 256 * 1024;

/**
 * POST /api/webhooks/providers/{provider}. Neither HeyGen's per-video events nor D-ID's `webhook` calls
 * are verified here, so a webhook is only a hint: it wakes the worker polling that job, which confirms
 * with a status GET of its own. It never sets a result, so a repeated or forged call changes nothing.
 */
export async function receiveProviderWebhook(providerName: string, request: Request) {
  const provider = await getHostedProvider();
  if (!provider || provider.name !== providerName || !provider.parseWebhook)
    throw notFound("Webhook receiver");
  const body = await request.text();
  if (Buffer.byteLength(body) > MAX_BODY_BYTES) {
    throw new ApiError("invalid_request", "The webhook body is too large.");
  }
  let hint: ReturnType<NonNullable<typeof provider.parseWebhook>>;
  try {
    hint = provider.parseWebhook({ headers: request.headers, body });
  } catch {
    throw new ApiError("invalid_request", "The webhook body is not the provider's JSON event.");
  }
  if (!hint) return { received: true, jobId: null };
  const db = await getDb();
  const [job] = await db
    .select({ id: videoJobs.id, status: videoJobs.status })
    .from(videoJobs)
    .where(and(eq(videoJobs.provider, provider.name), eq(videoJobs.providerJobId, hint.providerJobId)));
  if (!job) return { received: true, jobId: null };
  const woke = job.status === "running" && hintProviderJob(hint.providerJobId);
  log.info("video_provider_webhook", {
    provider: provider.name,
    jobId: job.id,
    claimedState: hint.claimedState,
    wokeWorker: woke,
  });
  return { received: true, jobId: job.id };
}
