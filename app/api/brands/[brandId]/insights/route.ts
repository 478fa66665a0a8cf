import { getBrandInsights } from "@/lib/analytics/get-brand-insights";
import { withApi } from "@/lib/api/handler";
import { getBrandInsights as brandInsights } from "@/lib/contracts/insights";

export const dynamic = "force-dynamic";

export const GET = withApi(brandInsights, async ({ principal, params: { brandId } }) =>
  Response.json(await getBrandInsights({ principal, brandId }), { headers: { "Cache-Control": "no-store" } }),
);
