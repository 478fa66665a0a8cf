import "server-only";
import { randomUUID } from "node:crypto";
import { and, eq, inArray, isNull } from "drizzle-orm";
import type { PgBoss } from "pg-boss";
import { getDb } from "@/db/client";
import { type Publication, publications } from "@/db/schema";
import { claimable, claimFields, leaseMs } from "./publication-lease";
import { enqueuePublications } from "./publication-queue";

// A worker's batch of due publications, held in one statement each: the claim of a fetch's worth (one token
// for the batch, each row owned on its own as claim() owns one), the lease renewal of the claims still
// waiting their turn in their channel's lane, and their release when their channel must wait.

/** A claimed publication: the row as claimed, and the token that owns it. */
export type Claimed = { row: Publication; token: string };

/** Claims every claimable publication of `ids` in one statement (the others are left as they are). */
export async function claimPublications(ids: string[]): Promise<Claimed[]> {
  if (ids.length === 0) return [];
  const db = await getDb();
  const now = new Date();
  const token = randomUUID();
  const rows = await db
    .update(publications)
    .set(claimFields(now, token))
    .where(and(inArray(publications.id, ids), claimable(now)))
    .returning();
  return rows.map((row) => ({ row, token }));
}

/** The claims, still ours and with no platform call started. */
const stillWaiting = (claims: Claimed[]) =>
  and(
    inArray(
      publications.id,
      claims.map((c) => c.row.id),
    ),
    inArray(publications.claimToken, [...new Set(claims.map((c) => c.token))]),
    eq(publications.status, "publishing"),
    isNull(publications.callStartedAt),
  );

/** Renews the lease of claims waiting their turn, in one statement. */
export async function keepClaimsAlive(claims: Claimed[]) {
  if (claims.length === 0) return;
  const db = await getDb();
  await db
    .update(publications)
    .set({ leaseUntil: new Date(Date.now() + leaseMs()) })
    .where(stillWaiting(claims));
}

/**
 * Nothing was posted for these claims: `scheduled` again, due at `nextAttemptAt` = `at` (so they can be
 * canceled, moved or held while they wait, DESIGN §11), and queued for `at`; no attempt is counted. One
 * statement for the rows, one for their jobs (`jobAt`: later, when the lane that gives them back takes them
 * again itself at `at`). Answers the ids released (a claim lost meanwhile is not).
 */
export async function releaseClaims(boss: PgBoss, claims: Claimed[], at: Date, jobAt = at) {
  if (claims.length === 0) return [];
  const db = await getDb();
  const released = await db
    .update(publications)
    .set({
      status: "scheduled",
      claimToken: null,
      leaseUntil: null,
      nextAttemptAt: at,
      updatedAt: new Date(),
    })
    .where(stillWaiting(claims))
    .returning({ id: publications.id, channelId: publications.channelId });
  await enqueuePublications(
    boss,
    released.map(({ id, channelId }) => ({ publicationId: id, channelId })),
    jobAt,
  );
  return released.map((r) => r.id);
}
