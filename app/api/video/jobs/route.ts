import { withApi } from "@/lib/api/handler";
import { generateVideo, listVideoJobs } from "@/lib/contracts/video";
import { createVideoJob } from "@/lib/video/create-video-job";
import { listVideoJobsForPrincipal } from "@/lib/video/list-video-jobs";
import { POLL_SECONDS } from "@/lib/video/video-job-view";

export const dynamic = "force-dynamic";

const NO_STORE = { "Cache-Control": "no-store" };

export const POST = withApi(
  generateVideo,
  async ({ principal, body, limitHeaders }) => {
    const job = await createVideoJob({ principal, input: body });
    const headers = { Location: `/api/video/jobs/${job.jobId}`, "Retry-After": String(POLL_SECONDS) };
    return Response.json(job, { status: 202, headers: { ...headers, ...NO_STORE, ...limitHeaders } });
  },
  { limit: "video", idempotent: true },
);

export const GET = withApi(listVideoJobs, async ({ principal, query }) =>
  Response.json(await listVideoJobsForPrincipal({ principal, query }), { headers: NO_STORE }),
);
