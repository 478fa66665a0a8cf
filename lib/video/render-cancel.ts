import { getDatabase } from "@/db/client";
import { log } from "@/lib/log";

/**
 * A cancel reaches the render at once, so the worker stops using the CPU and is free for the next job: in
 * the canceling process through its registry of running renders, and in every worker process on PostgreSQL
 * through `NOTIFY video_job_canceled`. The render's once-a-second progress write, which finds the row no
 * longer its own, stays the backstop for a notification missed while a connection reconnects.
 */
const CHANNEL = "video_job_canceled";

const globalForRenders = globalThis as unknown as {
  brandStudioRenders?: Map<string, () => void>;
  brandStudioCancelListening?: Promise<void>;
};

function renders() {
  globalForRenders.brandStudioRenders ??= new Map();
  return globalForRenders.brandStudioRenders;
}

const stopRender = (jobId: string) => renders().get(jobId)?.();

/** Registers a running render's stop; returns what unregisters it once the render is over. */
export function whileRendering(jobId: string, stop: () => void) {
  renders().set(jobId, stop);
  return () => {
    if (renders().get(jobId) === stop) renders().delete(jobId);
  };
}

/** After a cancel has committed: stop the render here, and tell every worker process on PostgreSQL. */
export async function announceCanceled(jobId: string) {
  stopRender(jobId);
  const database = await getDatabase();
  if (database.kind !== "postgres") return;
  try {
    await database.sql.notify(CHANNEL, jobId);
  } catch (error) {
    log.warn("video_cancel_notify_failed", { jobId, error });
  }
}

/** A worker process hears cancels made elsewhere (once per process; PGlite is one process). */
export function listenForCancels() {
  globalForRenders.brandStudioCancelListening ??= (async () => {
    const database = await getDatabase();
    if (database.kind === "postgres") await database.sql.listen(CHANNEL, stopRender);
  })().catch((error) => {
    globalForRenders.brandStudioCancelListening = undefined;
    log.warn("video_cancel_listen_failed", { error });
  });
  return globalForRenders.brandStudioCancelListening;
}
