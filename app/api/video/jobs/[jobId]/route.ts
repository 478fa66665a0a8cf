import { withApi } from "@/lib/api/handler";
import { cancelVideoJob, getVideoJobStatus, isTerminalVideoStatus } from "@/lib/contracts/video";
import { cancelVideoJob as cancelJob } from "@/lib/video/cancel-video-job";
import { matchesETag, readVideoJobStatus } from "@/lib/video/video-job-status";
import { POLL_SECONDS, toVideoJobView } from "@/lib/video/video-job-view";

export const dynamic = "force-dynamic";

export const GET = withApi(getVideoJobStatus, async ({ req, principal, params: { jobId } }) => {
  // Hot path: one prepared read (none for a finished job); the ETag comes from the row, so a 304 builds no view.
  const { row, etag } = await readVideoJobStatus({ principal, jobId });
  const headers = new Headers({ ETag: etag, "Cache-Control": "no-store" });
  if (!isTerminalVideoStatus(row.status)) headers.set("Retry-After", String(POLL_SECONDS));
  if (matchesETag(req.headers.get("if-none-match"), etag))
    return new Response(null, { status: 304, headers });
  return Response.json(await toVideoJobView(row), { headers });
});

export const DELETE = withApi(cancelVideoJob, async ({ principal, params: { jobId } }) => {
  const job = await cancelJob({ principal, jobId });
  return Response.json(await toVideoJobView(job), { headers: { "Cache-Control": "no-store" } });
});
