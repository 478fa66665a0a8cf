import { getDb } from "@/db/client";
import { type WebhookEndpoint, webhookDeliveries } from "@/db/schema";
import { newId } from "@/lib/ids";
import { log } from "@/lib/log";
import { enqueueDelivery } from "./webhook-queue";

export type WebhookEvent = { type: string; timestamp: string; data: unknown };

/**
 * Writes one delivery per endpoint (its id is the `webhook-id` every attempt carries) and queues it.
 * A delivery that cannot be queued stays `pending` in the log with the reason.
 */
export async function recordEvent(endpoints: WebhookEndpoint[], event: WebhookEvent) {
  const db = await getDb();
  const ids: string[] = [];
  for (const endpoint of endpoints) {
    const id = newId("msg");
    await db.insert(webhookDeliveries).values({
      id,
      endpointId: endpoint.id,
      eventType: event.type,
      payload: event,
    });
    ids.push(id);
    try {
      await enqueueDelivery(id);
    } catch (error) {
      log.error("webhook_enqueue_failed", { deliveryId: id, error });
    }
  }
  return ids;
}
