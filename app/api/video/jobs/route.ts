import { withApi } from "@/lib/api/handler";
import { withIdempotency } from "@/lib/api/idempotency";
import { enforceRateLimit, rateLimitSubject } from "@/lib/api/rate-limit";
import { readJson, readQuery } from "@/lib/api/read-request";
import { withAuth } from "@/lib/api/with-auth";
import { generateVideo, generateVideoBody, listVideoJobs, listVideoJobsQuery } from "@/lib/contracts/video";
import { createVideoJob } from "@/lib/video/create-video-job";
import { listVideoJobsForPrincipal } from "@/lib/video/list-video-jobs";
import { POLL_SECONDS } from "@/lib/video/video-job-view";

export const dynamic = "force-dynamic";

export const POST = withApi(
  withAuth(async (req, { principal }) => {
    const input = await readJson(req, generateVideoBody);
    const subject = rateLimitSubject(principal);
    return withIdempotency({
      req,
      subject,
      operation: generateVideo.id,
      body: input,
      // Inside execute: a replay of an Idempotency-Key does not count against the rate limit.
      execute: async () => {
        const limitHeaders = await enforceRateLimit({ bucket: "video", subject });
        const job = await createVideoJob({ principal, input });
        return Response.json(job, {
          status: 202,
          headers: {
            Location: `/api/video/jobs/${job.jobId}`,
            "Retry-After": String(POLL_SECONDS),
            "Cache-Control": "no-store",
            ...limitHeaders,
          },
        });
      },
    });
  }),
  { docId: generateVideo.id },
);

export const GET = withApi(
  withAuth(async (req, { principal }) => {
    const query = readQuery(req, listVideoJobsQuery);
    const page = await listVideoJobsForPrincipal({ principal, query });
    return Response.json(page, { headers: { "Cache-Control": "no-store" } });
  }),
  { docId: listVideoJobs.id },
);
