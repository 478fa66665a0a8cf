import { and, count, eq, gt } from "drizzle-orm";
import type client from "prom-client";
import { getDb } from "@/db/client";
import { webhookDeliveries } from "@/db/schema";
import { registerDatabaseGauges } from "@/lib/telemetry/database-gauges";

async function readWebhookSnapshot() {
  const db = await getDb();
  const [[pending], [retrying]] = await Promise.all([
    db.select({ n: count() }).from(webhookDeliveries).where(eq(webhookDeliveries.status, "pending")),
    db
      .select({ n: count() })
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.status, "pending"), gt(webhookDeliveries.attempts, 0))),
  ]);
  return { pending: Number(pending?.n ?? 0), retrying: Number(retrying?.n ?? 0) };
}

/** The webhook backlog's gauges: deliveries pending, and those of them waiting for a retry. */
export function registerWebhookGauges(registry: client.Registry) {
  registerDatabaseGauges(registry, "webhooks", readWebhookSnapshot, { pending: 0, retrying: 0 }, [
    {
      name: "brand_studio_webhook_retry_backlog",
      help: "Webhook deliveries still pending after at least one failed attempt (waiting for a retry).",
      collect: (gauge, snapshot) => gauge.set(snapshot.retrying),
    },
    {
      name: "brand_studio_webhook_pending",
      help: "Webhook deliveries not yet delivered or given up (first attempts and retries).",
      collect: (gauge, snapshot) => gauge.set(snapshot.pending),
    },
  ]);
}
