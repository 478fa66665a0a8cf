import type { PgBoss } from "pg-boss";
import { getEnv } from "@/lib/config";
import { getQueue } from "@/lib/queue/boss";
import { enqueueInSpan, type TracedJob } from "@/lib/queue/job-spans";
import { deliveryJobId } from "./delivery-job-id";

export const WEBHOOK_DELIVERY_QUEUE = "webhook-delivery";
/**
 * Retries after a failed delivery: WEBHOOK_RETRY_DELAY_SECONDS (30 s) doubling, at most 6 h apart; 12
 * retries with the defaults span about 20 hours, so an endpoint that is down for most of a day still
 * gets its events.
 */
export const WEBHOOK_RETRY_LIMIT = 12;

/** `trace`: the W3C context of the enqueue (tracing on), so a delivery joins the trace that caused it. */
export type WebhookDeliveryJob = { deliveryId: string } & TracedJob;

const globalForWebhookQueue = globalThis as unknown as {
  brandStudioWebhookQueue?: WeakMap<PgBoss, Promise<void>>;
};

export function ensureWebhookQueue(boss: PgBoss) {
  globalForWebhookQueue.brandStudioWebhookQueue ??= new WeakMap();
  const known = globalForWebhookQueue.brandStudioWebhookQueue;
  let ready = known.get(boss);
  if (!ready) {
    const options = {
      retryLimit: WEBHOOK_RETRY_LIMIT,
      retryDelay: getEnv().WEBHOOK_RETRY_DELAY_SECONDS,
      retryBackoff: true,
      retryDelayMax: 6 * 3600,
      expireInSeconds: 120,
    };
    ready = (async () => {
      if (await boss.getQueue(WEBHOOK_DELIVERY_QUEUE))
        await boss.updateQueue(WEBHOOK_DELIVERY_QUEUE, options);
      else await boss.createQueue(WEBHOOK_DELIVERY_QUEUE, options);
    })();
    ready.catch(() => known.delete(boss));
    known.set(boss, ready);
  }
  return ready;
}

export async function enqueueDelivery(deliveryId: string) {
  const boss = await getQueue();
  await ensureWebhookQueue(boss);
  await enqueueInSpan(WEBHOOK_DELIVERY_QUEUE, { "brand_studio.delivery_id": deliveryId }, async (trace) => {
    const data: WebhookDeliveryJob = { deliveryId, trace };
    // A fixed job id per delivery: the outbox drain may queue it again, and that is then a no-op.
    await boss.send(WEBHOOK_DELIVERY_QUEUE, data, { id: deliveryJobId(deliveryId) });
  });
}
