import type { PgBoss } from "pg-boss";
import type { QueueWorker } from "@/lib/queue/workers";

/**
 * Every queue worker. The inline worker (inside the web process, WORKER=inline) and `npm run worker`
 * both start exactly this list.
 */
export async function loadWorkers(): Promise<QueueWorker[]> {
  const { avatarTrainingWorker } = await import("@/lib/avatars/avatar-training");
  const { videoWorker } = await import("@/lib/video/video-worker");
  const { webhookWorker } = await import("@/lib/webhooks/deliver-webhook");
  const { publishWorker } = await import("@/lib/publishing/publish-worker");
  const { metricsWorker } = await import("@/lib/analytics/metrics-worker");
  const { draftImageWorker } = await import("@/lib/posts/draft-image-worker");
  return [avatarTrainingWorker, videoWorker, webhookWorker, publishWorker, metricsWorker, draftImageWorker];
}

export async function startWorkers(boss: PgBoss) {
  for (const worker of await loadWorkers()) await worker.start(boss);
}
