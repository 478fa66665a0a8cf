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
import { getVideoJobForPrincipal } from "@/lib/video/get-video-job";
import { POLL_SECONDS, toVideoJobView, videoJobETag } from "@/lib/video/video-job-view";

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
    const view = await toVideoJobView(await getVideoJobForPrincipal({ principal, jobId }));
    const etag = videoJobETag(view);
    const headers = new Headers({ ETag: etag, "Cache-Control": "no-store" });
    if (!isTerminalVideoStatus(view.status)) headers.set("Retry-After", String(POLL_SECONDS));
    if (matchesETag(req.headers.get("if-none-match"), etag))
      return new Response(null, { status: 304, headers });
    return Response.json(view, { headers });
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
