import { and, eq, inArray } from "drizzle-orm";
import { getDb } from "@/db/client";
import { brandMembers, videoJobs, webhookEndpoints } from "@/db/schema";
import { log } from "@/lib/log";
import { toVideoJobView } from "@/lib/video/video-job-view";
import { recordEvent } from "@/lib/webhooks/record-event";

const EVENT_OF_STATUS = {
  succeeded: "video.succeeded",
  failed: "video.failed",
  canceled: "video.canceled",
} as const;

/**
 * Sends `video.succeeded|failed|canceled` to the endpoints of every member of the job's brand that
 * subscribed to it; `data` is the job exactly as GET /api/video/jobs/{jobId} shows it. Never throws: a
 * webhook problem must not change the job.
 */
export async function emitVideoEvent(videoJobId: string) {
  try {
    const db = await getDb();
    const [job] = await db.select().from(videoJobs).where(eq(videoJobs.id, videoJobId));
    if (!job) return;
    const type = EVENT_OF_STATUS[job.status as keyof typeof EVENT_OF_STATUS];
    if (!type) return;
    const members = db
      .select({ userId: brandMembers.userId })
      .from(brandMembers)
      .where(eq(brandMembers.brandId, job.brandId));
    const endpoints = (
      await db
        .select()
        .from(webhookEndpoints)
        .where(and(inArray(webhookEndpoints.userId, members)))
    ).filter((endpoint) => endpoint.events.includes(type));
    if (endpoints.length === 0) return;
    await recordEvent(endpoints, {
      type,
      timestamp: new Date().toISOString(),
      data: await toVideoJobView(job),
    });
    log.info("webhook_event_recorded", { jobId: videoJobId, type, endpoints: endpoints.length });
  } catch (error) {
    log.error("webhook_event_failed", { jobId: videoJobId, error });
  }
}
