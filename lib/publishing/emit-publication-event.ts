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
