import type { PgBoss } from "pg-boss";

/**
 * Each background capability registers its queue and handler here; the inline worker (inside the web
 * process) and `npm run worker` both start exactly this list.
 */
export type QueueWorker = { name: string; start: (boss: PgBoss) => Promise<void> };

export async function loadWorkers(): Promise<QueueWorker[]> {
  const { avatarTrainingWorker } = await import("@/lib/brands/avatar-training");
  const { videoWorker } = await import("@/lib/video/video-worker");
  const { webhookWorker } = await import("@/lib/webhooks/deliver-webhook");
  return [avatarTrainingWorker, videoWorker, webhookWorker];
}

export async function startWorkers(boss: PgBoss) {
  for (const worker of await loadWorkers()) await worker.start(boss);
}
