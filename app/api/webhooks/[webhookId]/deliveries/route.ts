import { withApi } from "@/lib/api/handler";
import { readParams } from "@/lib/api/read-request";
import { withAuth } from "@/lib/api/with-auth";
import { listWebhookDeliveries as listOperation, webhookIdParams } from "@/lib/contracts/webhooks";
import { listDeliveries } from "@/lib/webhooks/webhook-endpoints";

export const GET = withApi(
  withAuth(async (_req, { principal, params }) => {
    const { webhookId } = readParams(params, webhookIdParams);
    return Response.json(await listDeliveries({ userId: principal.userId, webhookId }), {
      headers: { "Cache-Control": "no-store" },
    });
  }),
  { docId: listOperation.id },
);
