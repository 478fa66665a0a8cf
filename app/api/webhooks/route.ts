import { withApi } from "@/lib/api/handler";
import { readJson } from "@/lib/api/read-request";
import { withAuth } from "@/lib/api/with-auth";
import {
  createWebhook as createOperation,
  createWebhookBody,
  listWebhooks as listOperation,
} from "@/lib/contracts/webhooks";
import { createWebhookEndpoint, listWebhookEndpoints } from "@/lib/webhooks/webhook-endpoints";

export const GET = withApi(
  withAuth(async (_req, { principal }) => Response.json(await listWebhookEndpoints(principal.userId))),
  { docId: listOperation.id },
);

export const POST = withApi(
  withAuth(async (req, { principal }) => {
    const { url, events } = await readJson(req, createWebhookBody);
    const created = await createWebhookEndpoint({ userId: principal.userId, url, events });
    return Response.json(created, { status: 201, headers: { "Cache-Control": "no-store" } });
  }),
  { docId: createOperation.id },
);
