import { getPostMetrics as getMetrics } from "@/lib/analytics/post-metrics";
import { withApi } from "@/lib/api/handler";
import { readParams } from "@/lib/api/read-request";
import { withAuth } from "@/lib/api/with-auth";
import { getPostMetrics, postMetricsParams } from "@/lib/contracts/analytics";

export const dynamic = "force-dynamic";

export const GET = withApi(
  withAuth(async (_req, { principal, params }) => {
    const { postId } = readParams(params, postMetricsParams);
    return Response.json(await getMetrics({ principal, postId }), {
      headers: { "Cache-Control": "no-store" },
    });
  }),
  { docId: getPostMetrics.id },
);
