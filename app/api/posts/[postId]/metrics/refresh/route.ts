import { refreshPostMetrics as refresh } from "@/lib/analytics/post-metrics";
import { withApi } from "@/lib/api/handler";
import { readParams } from "@/lib/api/read-request";
import { withAuth } from "@/lib/api/with-auth";
import { postMetricsParams, refreshPostMetrics } from "@/lib/contracts/analytics";

export const dynamic = "force-dynamic";

export const POST = withApi(
  withAuth(async (_req, { principal, params }) => {
    const { postId } = readParams(params, postMetricsParams);
    return Response.json(await refresh({ principal, postId }), {
      status: 202,
      headers: { "Cache-Control": "no-store" },
    });
  }),
  { docId: refreshPostMetrics.id },
);
