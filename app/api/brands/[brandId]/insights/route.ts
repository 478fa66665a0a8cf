import { withApi } from "@/lib/api/handler";
import { readParams } from "@/lib/api/read-request";
import { withAuth } from "@/lib/api/with-auth";
import { brandInsightsParams, getBrandInsights } from "@/lib/contracts/insights";
import { getBrandInsights as getInsights } from "@/lib/insights/get-brand-insights";

export const dynamic = "force-dynamic";

export const GET = withApi(
  withAuth(async (_req, { principal, params }) => {
    const { brandId } = readParams(params, brandInsightsParams);
    return Response.json(await getInsights({ principal, brandId }), {
      headers: { "Cache-Control": "no-store" },
    });
  }),
  { docId: getBrandInsights.id },
);
