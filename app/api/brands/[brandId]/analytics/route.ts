import { brandAnalyticsCsv, getBrandAnalytics as getAnalytics } from "@/lib/analytics/brand-analytics";
import { withApi } from "@/lib/api/handler";
import { getBrandAnalytics } from "@/lib/contracts/analytics";

export const dynamic = "force-dynamic";

export const GET = withApi(getBrandAnalytics, async ({ req, principal, params: { brandId }, query }) => {
  const wantsCsv = query.format === "csv" || /\btext\/csv\b/.test(req.headers.get("accept") ?? "");
  if (!wantsCsv) {
    const analytics = await getAnalytics({ principal, brandId, query });
    return Response.json(analytics, { headers: { "Cache-Control": "no-store" } });
  }
  const csv = await brandAnalyticsCsv({ principal, brandId, query });
  return new Response(csv.body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${csv.filename}"`,
      "Cache-Control": "no-store",
    },
  });
});
