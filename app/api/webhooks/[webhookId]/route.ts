import { withApi } from "@/lib/api/handler";
import { readParams } from "@/lib/api/read-request";
import { withAuth } from "@/lib/api/with-auth";
import { deleteWebhook as deleteOperation, webhookIdParams } from "@/lib/contracts/webhooks";
import { deleteWebhookEndpoint } from "@/lib/webhooks/webhook-endpoints";

export const DELETE = withApi(
  withAuth(async (_req, { principal, params }) => {
    const { webhookId } = readParams(params, webhookIdParams);
    await deleteWebhookEndpoint({ userId: principal.userId, webhookId });
    return new Response(null, { status: 204 });
  }),
  { docId: deleteOperation.id },
);
