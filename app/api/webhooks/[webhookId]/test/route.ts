import { withApi } from "@/lib/api/handler";
import { readParams } from "@/lib/api/read-request";
import { withAuth } from "@/lib/api/with-auth";
import { sendTestWebhook as testOperation, webhookIdParams } from "@/lib/contracts/webhooks";
import { sendTestEvent } from "@/lib/webhooks/webhook-endpoints";

export const POST = withApi(
  withAuth(async (_req, { principal, params }) => {
    const { webhookId } = readParams(params, webhookIdParams);
    return Response.json(await sendTestEvent({ userId: principal.userId, webhookId }), { status: 202 });
  }),
  { docId: testOperation.id },
);
