import { z } from "zod";
import { idOf, isoDateTime } from "./common";
import { defineOperation } from "./operation";
import { ROUTES } from "./routes";
import { WEBHOOK_EVENTS } from "./webhook-rules";

export { WEBHOOK_EVENTS };
export const webhookEvent = z.enum(WEBHOOK_EVENTS);

export const webhookSummary = z.object({
  webhookId: idOf("whk"),
  url: z.string().meta({ example: "https://hooks.example.com/brand-studio" }),
  events: z.array(webhookEvent),
  createdAt: isoDateTime,
});

export const listWebhooksResponse = z.object({ items: z.array(webhookSummary) });

export const createWebhookBody = z.object({
  url: z
    .url({ protocol: /^https?$/, error: "Send an absolute http(s) URL." })
    .max(2000, "Use a URL of at most 2000 characters.")
    .meta({ example: "https://hooks.example.com/brand-studio" }),
  events: z
    .array(webhookEvent)
    .min(1, "Subscribe to at least one event.")
    .transform((events) => [...new Set(events)])
    .meta({ example: ["video.succeeded", "video.failed"] }),
});

export const createWebhookResponse = webhookSummary.extend({
  secret: z
    .string()
    .describe("The whsec_… signing secret. It is shown only in this response.")
    .meta({ example: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw" }),
});

export const webhookIdParams = z.object({ webhookId: idOf("whk") });

export const webhookDelivery = z.object({
  deliveryId: idOf("msg").describe("The webhook-id header of every attempt."),
  eventType: z.string().meta({ example: "video.succeeded" }),
  status: z.enum(["pending", "succeeded", "failed"]),
  attempts: z.number().int(),
  responseStatus: z.number().int().nullable().describe("The endpoint's HTTP status on the last attempt."),
  lastError: z.string().nullable(),
  createdAt: isoDateTime,
  deliveredAt: isoDateTime.nullable(),
});

export const listWebhookDeliveriesResponse = z.object({ items: z.array(webhookDelivery) });

export const sendTestWebhookResponse = z.object({
  deliveryId: idOf("msg"),
  status: z.literal("pending"),
});

export const listWebhooks = defineOperation({
  ...ROUTES.listWebhooks,
  title: "List webhooks",
  auth: "bearer",
  summary: "Lists the caller's webhook endpoints (never their secrets).",
  responses: { 200: { description: "The endpoints, newest first.", schema: listWebhooksResponse } },
});

export const createWebhook = defineOperation({
  ...ROUTES.createWebhook,
  title: "Create webhook",
  auth: "bearer",
  summary: "Registers an endpoint for signed Standard Webhooks events. The signing secret is returned once.",
  body: createWebhookBody,
  responses: { 201: { description: "The endpoint was registered.", schema: createWebhookResponse } },
  errors: ["invalid_request"],
});

export const deleteWebhook = defineOperation({
  ...ROUTES.deleteWebhook,
  title: "Delete webhook",
  auth: "bearer",
  summary: "Removes one of the caller's webhook endpoints; no more events go to it.",
  pathParams: webhookIdParams,
  responses: { 204: { description: "The endpoint is removed." } },
});

export const listWebhookDeliveries = defineOperation({
  ...ROUTES.listWebhookDeliveries,
  title: "List webhook deliveries",
  auth: "bearer",
  summary: "The delivery log of one endpoint: the last 50 messages with their attempts and outcome.",
  pathParams: webhookIdParams,
  responses: { 200: { description: "The deliveries, newest first.", schema: listWebhookDeliveriesResponse } },
});

export const sendTestWebhook = defineOperation({
  ...ROUTES.sendTestWebhook,
  title: "Send test webhook",
  auth: "bearer",
  summary: "Queues a signed `webhook.test` event to one endpoint; watch it in the delivery log.",
  pathParams: webhookIdParams,
  responses: { 202: { description: "The test event is queued.", schema: sendTestWebhookResponse } },
});

export type CreateWebhookBody = z.input<typeof createWebhookBody>;
export type CreateWebhookResponse = z.infer<typeof createWebhookResponse>;
export type WebhookSummary = z.infer<typeof webhookSummary>;
export type WebhookDeliveryView = z.infer<typeof webhookDelivery>;
