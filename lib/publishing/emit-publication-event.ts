import "server-only";
import { eq, inArray } from "drizzle-orm";
import type { Db, Tx } from "@/db/client";
import { brandMembers, type Publication, webhookEndpoints } from "@/db/schema";
import { log } from "@/lib/log";
import { writeEvent } from "@/lib/webhooks/record-event";
import { toPublicationView } from "./publication-view";

/**
 * `post.published` / `post.publish_failed` to the endpoints of the brand's members that subscribed; `data`
 * is the publication as GET /api/publications/{id} shows it. Written in the settlement's transaction (the
 * webhook deliveries are the outbox): the caller queues the returned delivery ids after the commit, and the
 * worker's outbox drain queues them if the process ends in between.
 */
export async function writePublicationEvent(tx: Db | Tx, row: Publication): Promise<string[]> {
  const type =
    row.status === "published" ? "post.published" : row.status === "failed" ? "post.publish_failed" : null;
  if (!type) return [];
  const members = tx
    .select({ userId: brandMembers.userId })
    .from(brandMembers)
    .where(eq(brandMembers.brandId, row.brandId));
  const endpoints = (
    await tx.select().from(webhookEndpoints).where(inArray(webhookEndpoints.userId, members))
  ).filter((endpoint) => endpoint.events.includes(type));
  const ids = await writeEvent(tx, endpoints, {
    type,
    timestamp: new Date().toISOString(),
    data: toPublicationView(row),
  });
  if (ids.length > 0)
    log.info("webhook_event_recorded", { publicationId: row.id, type, endpoints: ids.length });
  return ids;
}

/**
 * writePublicationEvent for several settled publications (finish-published.ts): the endpoints of all their
 * brands read in one statement, then each publication's event to its own brand's subscribed endpoints.
 */
export async function writePublicationEvents(tx: Db | Tx, rows: Publication[]): Promise<string[]> {
  if (rows.length === 0) return [];
  const subscribed = await tx
    .select({ endpoint: webhookEndpoints, brandId: brandMembers.brandId })
    .from(webhookEndpoints)
    .innerJoin(brandMembers, eq(brandMembers.userId, webhookEndpoints.userId))
    .where(inArray(brandMembers.brandId, [...new Set(rows.map((row) => row.brandId))]));
  const ids: string[] = [];
  for (const row of rows) {
    const type =
      row.status === "published" ? "post.published" : row.status === "failed" ? "post.publish_failed" : null;
    if (!type) continue;
    const endpoints = subscribed
      .filter((s) => s.brandId === row.brandId && s.endpoint.events.includes(type))
      .map((s) => s.endpoint);
    if (endpoints.length === 0) continue;
    const written = await writeEvent(tx, endpoints, {
      type,
      timestamp: new Date().toISOString(),
      data: toPublicationView(row),
    });
    log.info("webhook_event_recorded", { publicationId: row.id, type, endpoints: written.length });
    ids.push(...written);
  }
  return ids;
}
