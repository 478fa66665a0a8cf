import { eq, sql } from "drizzle-orm";
import type { Job } from "pg-boss";
import { Webhook } from "standardwebhooks";
import { getDb } from "@/db/client";
import { webhookDeliveries, webhookEndpoints } from "@/db/schema";
import { log } from "@/lib/log";
import type { QueueWorker } from "@/lib/queue/workers";
import { findTargetProblem } from "./ssrf";
import {
  ensureWebhookQueue,
  WEBHOOK_DELIVERY_QUEUE,
  WEBHOOK_RETRY_LIMIT,
  type WebhookDeliveryJob,
} from "./webhook-queue";

const DELIVERY_TIMEOUT_MS = 10_000;

class DeliveryFailed extends Error {}

async function record(
  deliveryId: string,
  fields: {
    status: "pending" | "succeeded" | "failed";
    responseStatus: number | null;
    lastError: string | null;
  },
) {
  const db = await getDb();
  const now = new Date();
  await db
    .update(webhookDeliveries)
    .set({
      ...fields,
      attempts: sql`${webhookDeliveries.attempts} + 1`,
      updatedAt: now,
      deliveredAt: fields.status === "succeeded" ? now : null,
    })
    .where(eq(webhookDeliveries.id, deliveryId));
}

/**
 * One attempt to deliver one message, signed per Standard Webhooks with the `standardwebhooks` package:
 * `webhook-id` (the same on every retry), `webhook-timestamp` (this attempt) and `webhook-signature`.
 * A 2xx answer is success; anything else throws, and pg-boss retries with exponential backoff until the
 * last attempt, which marks the delivery failed.
 */
export async function deliverWebhook(job: Job<WebhookDeliveryJob>) {
  const { deliveryId } = job.data;
  const db = await getDb();
  const [row] = await db
    .select({ delivery: webhookDeliveries, endpoint: webhookEndpoints })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .where(eq(webhookDeliveries.id, deliveryId));
  if (!row) return;
  if (row.delivery.status !== "pending") return;
  const { delivery, endpoint } = row;
  const last = job.retryCount >= WEBHOOK_RETRY_LIMIT;

  const problem = await findTargetProblem(endpoint.url);
  if (problem) {
    await record(deliveryId, { status: "failed", responseStatus: null, lastError: problem });
    log.warn("webhook_delivery_refused", { deliveryId, reason: problem });
    return;
  }
  const body = JSON.stringify(delivery.payload);
  const timestamp = new Date();
  const signature = new Webhook(endpoint.secret).sign(delivery.id, timestamp, body);
  let status: number | null = null;
  let error: string | null = null;
  try {
    const response = await fetch(endpoint.url, {
      method: "POST",
      redirect: "manual",
      signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
      headers: {
        "Content-Type": "application/json",
        "User-Agent": "BrandStudio-Webhooks/1",
        "webhook-id": delivery.id,
        "webhook-timestamp": String(Math.floor(timestamp.getTime() / 1000)),
        "webhook-signature": signature,
      },
      body,
    });
    status = response.status;
    await response.body?.cancel().catch(() => {});
    if (status < 200 || status >= 300) error = `The endpoint answered HTTP ${status}.`;
  } catch (cause) {
    error =
      (cause as Error).name === "TimeoutError"
        ? `The endpoint did not answer within ${DELIVERY_TIMEOUT_MS / 1000} s.`
        : "The endpoint could not be reached.";
  }
  if (!error) {
    await record(deliveryId, { status: "succeeded", responseStatus: status, lastError: null });
    log.info("webhook_delivered", { deliveryId, endpointId: endpoint.id, type: delivery.eventType });
    return;
  }
  await record(deliveryId, { status: last ? "failed" : "pending", responseStatus: status, lastError: error });
  log.warn("webhook_delivery_failed", { deliveryId, attempt: job.retryCount + 1, status, final: last });
  if (!last) throw new DeliveryFailed(error);
}

export const webhookWorker: QueueWorker = {
  name: WEBHOOK_DELIVERY_QUEUE,
  async start(boss) {
    await ensureWebhookQueue(boss);
    await boss.work<WebhookDeliveryJob>(
      WEBHOOK_DELIVERY_QUEUE,
      { pollingIntervalSeconds: 1, batchSize: 1, localConcurrency: 2 },
      ([job]) => deliverWebhook(job),
    );
  },
};
