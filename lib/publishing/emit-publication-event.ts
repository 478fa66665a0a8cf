import "server-only";
import { eq, inArray } from "drizzle-orm";
import { getDb } from "@/db/client";
import { brandMembers, publications, webhookEndpoints } from "@/db/schema";
import { log } from "@/lib/log";
import { recordEvent } from "@/lib/webhooks/record-event";
import { toPublicationView } from "./publication-view";

/**
 * `post.published` / `post.publish_failed` to the endpoints of the brand's members that subscribed; `data`
 * is the publication as GET /api/publications/{id} shows it. Never throws.
 */
export async function emitPublicationEvent(publicationId: string) {
  try {
    const db = await getDb();
    const [row] = await db.select().from(publications).where(eq(publications.id, publicationId));
    if (!row) return;
    const type =
      row.status === "published" ? "post.published" : row.status === "failed" ? "post.publish_failed" : null;
    if (!type) return;
    const members = db
      .select({ userId: brandMembers.userId })
      .from(brandMembers)
      .where(eq(brandMembers.brandId, row.brandId));
    const endpoints = (
      await db.select().from(webhookEndpoints).where(inArray(webhookEndpoints.userId, members))
    ).filter((endpoint) => endpoint.events.includes(type));
    if (endpoints.length === 0) return;
    await recordEvent(endpoints, { type, timestamp: new Date().toISOString(), data: toPublicationView(row) });
    log.info("webhook_event_recorded", { publicationId, type, endpoints: endpoints.length });
  } catch (error) {
    log.error("webhook_event_failed", { publicationId, error });
  }
}
