import { eq, sql } from "drizzle-orm";
import type { Job } from "pg-boss";
import { Webhook } from "standardwebhooks";
import { getDb } from "@/db/client";
import { webhookDeliveries, webhookEndpoints } from "@/db/schema";
import { log } from "@/lib/log";
import { runInSpan } from "@/lib/queue/job-spans";
import type { QueueWorker } from "@/lib/queue/workers";
import { guardedFetch } from "@/lib/security/outbound-fetch";
import { findTargetProblem } from "@/lib/security/ssrf";
import { metrics } from "@/lib/telemetry/metrics";
import { failSpan, setSpanAttributes, urlForSpan } from "@/lib/telemetry/tracing";
import { drainWebhookOutbox } from "./record-event";
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
export function deliverWebhook(job: Job<WebhookDeliveryJob>) {
  return runInSpan(
    WEBHOOK_DELIVERY_QUEUE,
    job,
    { "brand_studio.delivery_id": job.data.deliveryId, "brand_studio.attempt": job.retryCount + 1 },
    (span) =>
      attemptDelivery(job, (outcome, attributes = {}) => {
        metrics().webhookDeliveries.inc({ outcome });
        setSpanAttributes(span, { "brand_studio.outcome": outcome, ...attributes });
        if (outcome !== "delivered") failSpan(span, outcome);
      }),
    "webhook deliver",
  );
}

type DeliveryOutcome = "delivered" | "retrying" | "failed" | "refused";

async function attemptDelivery(
  job: Job<WebhookDeliveryJob>,
  count: (outcome: DeliveryOutcome, attributes?: Record<string, string | number>) => void,
) {
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
    count("refused");
    log.warn("webhook_delivery_refused", { deliveryId, reason: problem });
    return;
  }
  const body = JSON.stringify(delivery.payload);
  const timestamp = new Date();
  const signature = new Webhook(endpoint.secret).sign(delivery.id, timestamp, body);
  let status: number | null = null;
  let error: string | null = null;
  const target = { "server.address": new URL(endpoint.url).host, "url.full": urlForSpan(endpoint.url) };
  try {
    const response = await guardedFetch(endpoint.url, {
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
    count("delivered", {
      ...target,
      "http.response.status_code": status ?? 0,
      "brand_studio.event": delivery.eventType,
    });
    log.info("webhook_delivered", { deliveryId, endpointId: endpoint.id, type: delivery.eventType });
    return;
  }
  await record(deliveryId, { status: last ? "failed" : "pending", responseStatus: status, lastError: error });
  count(last ? "failed" : "retrying", { ...target, "http.response.status_code": status ?? 0 });
  log.warn("webhook_delivery_failed", { deliveryId, attempt: job.retryCount + 1, status, final: last });
  if (!last) throw new DeliveryFailed(error);
}

/** How often each worker queues outbox deliveries that were written and never queued. */
const OUTBOX_DRAIN_INTERVAL_MS = 60_000;
const globalForDrain = globalThis as unknown as { brandStudioWebhookDrain?: NodeJS.Timeout };

export const webhookWorker: QueueWorker = {
  name: WEBHOOK_DELIVERY_QUEUE,
  async start(boss) {
    await ensureWebhookQueue(boss);
    await boss.work<WebhookDeliveryJob>(
      WEBHOOK_DELIVERY_QUEUE,
      { pollingIntervalSeconds: 1, batchSize: 1, localConcurrency: 2 },
      ([job]) => deliverWebhook(job),
    );
    // The outbox: events written with their change (a publication's settlement) whose process ended
    // before it queued them are queued here, at start and every minute.
    const drain = () =>
      drainWebhookOutbox()
        .then((count) => count > 0 && log.info("webhook_outbox_drained", { count }))
        .catch((error) => log.error("webhook_outbox_drain_failed", { error }));
    if (globalForDrain.brandStudioWebhookDrain) clearInterval(globalForDrain.brandStudioWebhookDrain);
    void drain();
    globalForDrain.brandStudioWebhookDrain = setInterval(drain, OUTBOX_DRAIN_INTERVAL_MS);
    globalForDrain.brandStudioWebhookDrain.unref();
  },
};
