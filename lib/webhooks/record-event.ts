import { and, asc, eq } from "drizzle-orm";
import { type Db, getDb, type Tx } from "@/db/client";
import { type WebhookEndpoint, webhookDeliveries } from "@/db/schema";
import { newId } from "@/lib/ids";
import { log } from "@/lib/log";
import { enqueueDelivery } from "./webhook-queue";

export type WebhookEvent = { type: string; timestamp: string; data: unknown };

/**
 * Writes one delivery per endpoint (its id is the `webhook-id` every attempt carries), `pending`, with the
 * writer's transaction: an event that belongs to a change (a publication settled) is written with it or
 * not at all. The rows are the outbox: `enqueueDeliveries` queues them after the commit, and
 * `drainWebhookOutbox` queues any that a process ending between the two left behind.
 */
export async function writeEvent(tx: Db | Tx, endpoints: WebhookEndpoint[], event: WebhookEvent) {
  const ids = endpoints.map(() => newId("msg"));
  if (ids.length === 0) return ids;
  await tx.insert(webhookDeliveries).values(
    endpoints.map((endpoint, index) => ({
      id: ids[index],
      endpointId: endpoint.id,
      eventType: event.type,
      payload: event,
    })),
  );
  return ids;
}

/** Queues written deliveries. One that cannot be queued stays `pending` for the outbox drain. */
export async function enqueueDeliveries(ids: string[]) {
  for (const id of ids) {
    try {
      await enqueueDelivery(id);
    } catch (error) {
      log.error("webhook_enqueue_failed", { deliveryId: id, error });
    }
  }
}

/** Writes the deliveries and queues them (an event that is not part of another change). */
export async function recordEvent(endpoints: WebhookEndpoint[], event: WebhookEvent) {
  const ids = await writeEvent(await getDb(), endpoints, event);
  await enqueueDeliveries(ids);
  return ids;
}

/**
 * The outbox drain (each worker, at start and then every minute): deliveries that were written and never
 * attempted, queued (again). One whose job is still waiting is not queued twice (its job id is fixed).
 */
export async function drainWebhookOutbox() {
  const db = await getDb();
  const waiting = await db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.status, "pending"), eq(webhookDeliveries.attempts, 0)))
    .orderBy(asc(webhookDeliveries.createdAt))
    .limit(500);
  await enqueueDeliveries(waiting.map((row) => row.id));
  return waiting.length;
}
