import { withApi } from "@/lib/api/handler";
import { backendConnectCheck } from "@/lib/contracts/health";
import { checkHealth } from "@/lib/health/check-health";

export const dynamic = "force-dynamic";

export const GET = withApi(
  async () => {
    const health = await checkHealth();
    return Response.json(health, {
      status: health.status === "ok" ? 200 : 503,
      headers: { "Cache-Control": "no-store" },
    });
  },
  { docId: backendConnectCheck.id },
);
