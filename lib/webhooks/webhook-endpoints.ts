import { randomBytes } from "node:crypto";
import { and, desc, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { type WebhookEndpoint, webhookDeliveries, webhookEndpoints } from "@/db/schema";
import { recordMemberActivity } from "@/lib/activity/record-activity";
import type { WebhookDeliveryView, WebhookSummary } from "@/lib/contracts/webhooks";
import { ApiError, notFound } from "@/lib/errors/api-error";
import { newId } from "@/lib/ids";
import { findTargetProblem } from "@/lib/security/ssrf";
import { recordEvent } from "./record-event";

const MAX_ENDPOINTS = 20;

const summary = (endpoint: WebhookEndpoint): WebhookSummary => ({
  webhookId: endpoint.id,
  url: endpoint.url,
  events: endpoint.events as WebhookSummary["events"],
  createdAt: endpoint.createdAt.toISOString(),
});

/** Only the host goes into the activity log: a URL's path or query may carry a token of the receiver's. */
const webhookHost = (url: string) => new URL(url).host;

/** A Standard Webhooks secret: `whsec_` and 24 random bytes in base64. */
const newSecret = () => `whsec_${randomBytes(24).toString("base64")}`;

export async function createWebhookEndpoint({
  userId,
  url,
  events,
}: {
  userId: string;
  url: string;
  events: string[];
}) {
  const problem = await findTargetProblem(url);
  if (problem) {
    throw new ApiError("invalid_request", problem, { details: [{ path: "url", message: problem }] });
  }
  const db = await getDb();
  const existing = await db
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.userId, userId));
  if (existing.length >= MAX_ENDPOINTS) {
    throw new ApiError(
      "invalid_request",
      `You can have at most ${MAX_ENDPOINTS} webhook endpoints; delete one first.`,
    );
  }
  const endpoint = await db.transaction(async (tx) => {
    const [created] = await tx
      .insert(webhookEndpoints)
      .values({ id: newId("whk"), userId, url, events, secret: newSecret() })
      .returning();
    await recordMemberActivity(tx, {
      actorId: userId,
      action: "webhook.created",
      subjectType: "webhook",
      subjectId: created.id,
      details: { host: webhookHost(created.url), events: created.events },
    });
    return created;
  });
  return { ...summary(endpoint), secret: endpoint.secret };
}

export async function listWebhookEndpoints(userId: string) {
  const db = await getDb();
  const rows = await db
    .select()
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.userId, userId))
    .orderBy(desc(webhookEndpoints.createdAt));
  return { items: rows.map(summary) };
}

async function ownEndpoint(userId: string, webhookId: string) {
  const db = await getDb();
  const [endpoint] = await db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, webhookId), eq(webhookEndpoints.userId, userId)));
  if (!endpoint) throw notFound("Webhook");
  return endpoint;
}

export async function deleteWebhookEndpoint({ userId, webhookId }: { userId: string; webhookId: string }) {
  const db = await getDb();
  await db.transaction(async (tx) => {
    const [deleted] = await tx
      .delete(webhookEndpoints)
      .where(and(eq(webhookEndpoints.id, webhookId), eq(webhookEndpoints.userId, userId)))
      .returning({ id: webhookEndpoints.id, url: webhookEndpoints.url });
    if (!deleted) throw notFound("Webhook");
    await recordMemberActivity(tx, {
      actorId: userId,
      action: "webhook.revoked",
      subjectType: "webhook",
      subjectId: deleted.id,
      details: { host: webhookHost(deleted.url) },
    });
  });
}

export async function listDeliveries({ userId, webhookId }: { userId: string; webhookId: string }) {
  await ownEndpoint(userId, webhookId);
  const db = await getDb();
  const rows = await db
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.endpointId, webhookId))
    .orderBy(desc(webhookDeliveries.createdAt))
    .limit(50);
  const items: WebhookDeliveryView[] = rows.map((row) => ({
    deliveryId: row.id,
    eventType: row.eventType,
    status: row.status,
    attempts: row.attempts,
    responseStatus: row.responseStatus,
    lastError: row.lastError,
    createdAt: row.createdAt.toISOString(),
    deliveredAt: row.deliveredAt?.toISOString() ?? null,
  }));
  return { items };
}

export async function sendTestEvent({ userId, webhookId }: { userId: string; webhookId: string }) {
  const endpoint = await ownEndpoint(userId, webhookId);
  const [deliveryId] = await recordEvent([endpoint], {
    type: "webhook.test",
    timestamp: new Date().toISOString(),
    data: { webhookId, message: "A test event from Brand Studio. Verify its signature with your secret." },
  });
  return { deliveryId, status: "pending" as const };
}
