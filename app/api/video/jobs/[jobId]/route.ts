import { withApi } from "@/lib/api/handler";
import { readParams } from "@/lib/api/read-request";
import { withAuth } from "@/lib/api/with-auth";
import {
  cancelVideoJob,
  getVideoJobStatus,
  isTerminalVideoStatus,
  videoJobParams,
} from "@/lib/contracts/video";
import { cancelVideoJob as cancelJob } from "@/lib/video/cancel-video-job";
import { readVideoJobStatus } from "@/lib/video/video-job-status";
import { POLL_SECONDS, toVideoJobView } from "@/lib/video/video-job-view";

export const dynamic = "force-dynamic";

/** If-None-Match holds one or more ETags (weak or strong), or `*`. */
function matchesETag(ifNoneMatch: string | null, etag: string) {
  if (!ifNoneMatch) return false;
  return ifNoneMatch
    .split(",")
    .map((tag) => tag.trim().replace(/^W\//, ""))
    .some((tag) => tag === "*" || tag === etag);
}

export const GET = withApi(
  withAuth(async (req, { principal, params }) => {
    const { jobId } = readParams(params, videoJobParams);
    // Hot path: one prepared read (none for a finished job); the ETag comes from the row, so a 304 builds no view.
    const { row, etag } = await readVideoJobStatus({ principal, jobId });
    const headers = new Headers({ ETag: etag, "Cache-Control": "no-store" });
    if (!isTerminalVideoStatus(row.status)) headers.set("Retry-After", String(POLL_SECONDS));
    if (matchesETag(req.headers.get("if-none-match"), etag))
      return new Response(null, { status: 304, headers });
    return Response.json(await toVideoJobView(row), { headers });
  }),
  { docId: getVideoJobStatus.id },
);

export const DELETE = withApi(
  withAuth(async (_req, { principal, params }) => {
    const { jobId } = readParams(params, videoJobParams);
    const job = await cancelJob({ principal, jobId });
    return Response.json(await toVideoJobView(job), { headers: { "Cache-Control": "no-store" } });
  }),
  { docId: cancelVideoJob.id },
);
