import { withApi } from "@/lib/api/handler";
import { registerDomainGauges } from "@/lib/server/domain-gauges";
import { scrapeMetrics } from "@/lib/telemetry/scrape-metrics";

export const dynamic = "force-dynamic";

// An operator's endpoint for Prometheus, not an API operation for the site: no docs card (like
// /api/openapi.json); docs/observability.md describes it.
export const GET = withApi(
  async (req) => {
    registerDomainGauges();
    return scrapeMetrics(req.headers.get("authorization"));
  },
  {
    operation: "metrics",
  },
);
