import { withApi } from "@/lib/api/handler";
import { withAuth } from "@/lib/api/with-auth";
import { listReviewQueue as operation } from "@/lib/contracts/reviews";
import { listReviewQueue } from "@/lib/publishing/review-post";

export const dynamic = "force-dynamic";

export const GET = withApi(
  withAuth(async (_req, { principal }) =>
    Response.json(await listReviewQueue({ principal }), { headers: { "Cache-Control": "no-store" } }),
  ),
  { docId: operation.id },
);
