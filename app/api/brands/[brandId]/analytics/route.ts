import { brandAnalyticsCsv, getBrandAnalytics as getAnalytics } from "@/lib/analytics/brand-analytics";
import { withApi } from "@/lib/api/handler";
import { readParams, readQuery } from "@/lib/api/read-request";
import { withAuth } from "@/lib/api/with-auth";
import { brandAnalyticsParams, brandAnalyticsQuery, getBrandAnalytics } from "@/lib/contracts/analytics";

export const dynamic = "force-dynamic";

export const GET = withApi(
  withAuth(async (req, { principal, params }) => {
    const { brandId } = readParams(params, brandAnalyticsParams);
    const query = readQuery(req, brandAnalyticsQuery);
    const wantsCsv = query.format === "csv" || /\btext\/csv\b/.test(req.headers.get("accept") ?? "");
    if (wantsCsv) {
      const csv = await brandAnalyticsCsv({ principal, brandId, query });
      return new Response(csv.body, {
        headers: {
          "Content-Type": "text/csv; charset=utf-8",
          "Content-Disposition": `attachment; filename="${csv.filename}"`,
          "Cache-Control": "no-store",
        },
      });
    }
    return Response.json(await getAnalytics({ principal, brandId, query }), {
      headers: { "Cache-Control": "no-store" },
    });
  }),
  { docId: getBrandAnalytics.id },
);
