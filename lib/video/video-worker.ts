import { startProcessHost } from "@/lib/ffmpeg/process-host";
import { trackHandler } from "@/lib/queue/boss";
import type { QueueWorker } from "@/lib/queue/workers";
import { listenForCancels } from "./render-cancel";
import { failExhaustedVideoJob, runVideoRenderJob } from "./run-video-job";
import {
  ensureVideoQueues,
  VIDEO_RENDER_FAILED_QUEUE,
  VIDEO_RENDER_QUEUE,
  type VideoRenderJobData,
} from "./video-queue";

/**
 * Renders one video at a time per process (a render keeps a core busy); run more `npm run worker`
 * processes to render more at once. Polling every second keeps the wait before a render starts short.
 */
export const videoWorker: QueueWorker = {
  name: "video",
  async start(boss) {
    // Now, while this process is small: each render's tools are started by it (lib/ffmpeg/process-host.ts).
    startProcessHost();
    await ensureVideoQueues(boss);
    await listenForCancels();
    await boss.work<VideoRenderJobData>(
      VIDEO_RENDER_QUEUE,
      // New renders arrive by NOTIFY; the 1 s poll stays for retries that come due and missed notifications.
      { localConcurrency: 1, batchSize: 1, pollingIntervalSeconds: 1, notifyPollingIntervalSeconds: 1 },
      ([job]) => trackHandler(() => runVideoRenderJob(job)),
    );
    await boss.work<VideoRenderJobData, void, { includeMetadata: true; pollingIntervalSeconds: 2 }>(
      VIDEO_RENDER_FAILED_QUEUE,
      { includeMetadata: true, pollingIntervalSeconds: 2 },
      ([job]) => failExhaustedVideoJob(job),
    );
  },
};
