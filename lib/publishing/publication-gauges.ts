import { count, eq, sql } from "drizzle-orm";
import type client from "prom-client";
import { getDb } from "@/db/client";
import { publications } from "@/db/schema";
import { registerDatabaseGauges } from "@/lib/telemetry/database-gauges";

const STATES = ["waiting", "due", "held"] as const;
type PublicationSnapshot = Record<(typeof STATES)[number], number>;

async function readPublicationSnapshot(): Promise<PublicationSnapshot> {
  const db = await getDb();
  const [scheduled, [held]] = await Promise.all([
    db
      .select({ due: sql<boolean>`${publications.publishAt} <= now()`, n: count() })
      .from(publications)
      .where(eq(publications.status, "scheduled"))
      .groupBy(sql`1`),
    db.select({ n: count() }).from(publications).where(eq(publications.status, "held")),
  ]);
  const scheduledWhere = (due: boolean) => Number(scheduled.find((row) => row.due === due)?.n ?? 0);
  return { waiting: scheduledWhere(false), due: scheduledWhere(true), held: Number(held?.n ?? 0) };
}

/**
 * The publishing queue's gauge: publications scheduled for later (waiting), scheduled and due now or
 * overdue (due: a backlog the publish workers have not reached), and held for a new approval (held).
 */
export function registerPublicationGauges(registry: client.Registry) {
  registerDatabaseGauges(registry, "publications", readPublicationSnapshot, { waiting: 0, due: 0, held: 0 }, [
    {
      name: "brand_studio_publications",
      help: "Publications not yet sent, by state: waiting (scheduled for later), due (scheduled, time reached), held (waiting for a new approval).",
      labelNames: ["state"],
      collect(gauge, snapshot) {
        gauge.reset();
        for (const state of STATES) gauge.set({ state }, snapshot[state]);
      },
    },
  ]);
}
