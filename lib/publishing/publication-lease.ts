import "server-only";
import { and, eq, inArray, isNotNull, isNull, lt, lte, or, type SQL, sql } from "drizzle-orm";
import type { PgBoss } from "pg-boss";
import { getDb } from "@/db/client";
import { type Publication, publications } from "@/db/schema";
import { recordActivity } from "@/lib/activity/record-activity";
import { getEnv } from "@/lib/config";
import type { ErrorCode } from "@/lib/errors/error-codes";
import { ERROR_CODES } from "@/lib/errors/error-codes";
import { log } from "@/lib/log";
import { metrics } from "@/lib/telemetry/metrics";
import { enqueueDeliveries } from "@/lib/webhooks/record-event";
import { backOffChannel } from "./channel-backoff";
import { writePublicationEvent } from "./emit-publication-event";
import type { PlatformError } from "./platform-error";
import { platformAdapters } from "./platforms";
import { type PublishRun, RunLostError } from "./platforms/adapter";
import { settlePostStatus } from "./post-status";
import { enqueuePublication } from "./publication-queue";

// A run's hold on its publication: the claim and its lease, the attempt and the point of no return, the
// settlement (with its outbox), the requeue for a retry, and the sweep for what dead workers left behind.

/** Calls to the platform in all (the first and the retries) before a transient failure is final. */
export const PUBLISH_MAX_ATTEMPTS = 5;
/**
 * A publication a channel lane gave back to take again itself (a 429's short wait) is also queued this long
 * after it is due, for whichever worker is left if that process is gone by then.
 */
export const LANE_JOB_GRACE_MS = 5000;
/** A run that was due this long ago and never started, or a retry this late, is queued again by the sweep. */
const REQUEUE_AFTER_MS = 60_000;

/** How long a claim (or an attempt) holds its publication without renewal. */
export const leaseMs = () => getEnv().PUBLISH_TIMEOUT_MS + 5000;

/** The rows a claim may take: due and scheduled, or publishing with no platform call in flight and no live owner. */
export function claimable(now: Date) {
  const dueBy = new Date(now.getTime() + 2000);
  return or(
    and(
      eq(publications.status, "scheduled"),
      // Due: its time, or the time a retry waits for.
      or(
        and(isNull(publications.nextAttemptAt), lte(publications.publishAt, dueBy)),
        lte(publications.nextAttemptAt, dueBy),
      ),
    ),
    and(
      eq(publications.status, "publishing"),
      isNull(publications.callStartedAt),
      or(isNull(publications.leaseUntil), lt(publications.leaseUntil, now)),
    ),
  );
}

/** What a claim writes: the row is `publishing`, owned by `token` until the lease runs out. */
export const claimFields = (now: Date, token: string) => ({
  status: "publishing" as const,
  claimToken: token,
  leaseUntil: new Date(now.getTime() + leaseMs()),
  nextAttemptAt: null,
  startedAt: sql`coalesce(${publications.startedAt}, now())`,
  updatedAt: now,
});

/** Backoff for a transient failure: the platform's retry_after, else 2, 4, 8, … s (±20 %), at most 5 min. */
export function retryDelaySeconds(attempt: number, retryAfter: number | null) {
  if (retryAfter && retryAfter > 0) return Math.min(retryAfter, 3600);
  const base = Math.min(300, 2 ** attempt);
  return Math.max(1, Math.round(base * (0.8 + Math.random() * 0.4)));
}

export async function finish(
  row: Publication,
  claimToken: string | null,
  fields: Partial<Publication> & { status: "published" | "failed" },
) {
  const db = await getDb();
  const now = new Date();
  const done = await db.transaction(async (tx) => {
    const [updated] = await tx
      .update(publications)
      .set({ ...fields, claimToken: null, leaseUntil: null, finishedAt: now, updatedAt: now })
      .where(
        and(
          eq(publications.id, row.id),
          eq(publications.status, "publishing"),
          claimToken ? eq(publications.claimToken, claimToken) : undefined,
        ),
      )
      .returning();
    if (!updated) return null;
    await settlePostStatus(updated.postId, tx);
    // `post.published` is written by a trigger; a failure is recorded here, named after who scheduled it.
    if (updated.status === "failed" && updated.createdBy)
      await recordActivity(tx, {
        brandId: updated.brandId,
        actorId: updated.createdBy,
        action: "publication.failed",
        subjectType: "publication",
        subjectId: updated.id,
        details: { postId: updated.postId, channel: updated.channel, code: updated.errorCode },
      });
    // The webhook event is written with the settlement (an outbox), queued after the commit below.
    return { ...updated, deliveries: await writePublicationEvent(tx, updated) };
  });
  if (!done) return;
  metrics().publications.inc({ platform: done.channel, outcome: fields.status });
  log.info(fields.status === "published" ? "publication_published" : "publication_failed", {
    publicationId: row.id,
    code: fields.errorCode,
    attempts: done.attempts,
  });
  await enqueueDeliveries(done.deliveries);
}

export const fail = (
  row: Publication,
  claimToken: string | null,
  code: ErrorCode,
  message: string,
  retryable?: boolean,
) =>
  finish(row, claimToken, {
    status: "failed",
    errorCode: code,
    errorMessage: message,
    errorRetryable: retryable ?? ERROR_CODES[code].retryable,
  });

/**
 * An attempt of the claimed run: counted, with a fresh lease, and the run a send is given. Nothing is posted
 * until `run.commitCall()`, which marks the call made in the same statement that checks the run still owns the
 * row and (`approvedNow`) that the post is still the approved version. Null when the claim was lost.
 */
export async function startAttempt(row: Publication, token: string, approvedNow: SQL | undefined) {
  const db = await getDb();
  const ours = and(eq(publications.id, row.id), eq(publications.claimToken, token));
  const [started] = await db
    .update(publications)
    .set({
      attempts: sql`${publications.attempts} + 1`,
      leaseUntil: new Date(Date.now() + leaseMs()),
      updatedAt: new Date(),
    })
    .where(and(ours, isNull(publications.callStartedAt)))
    .returning();
  if (!started) return null;
  let committed = false;
  const run: PublishRun = {
    // The point of no return: from here the row says a call may have happened.
    async commitCall(ref) {
      const [marked] = await db
        .update(publications)
        .set({
          callStartedAt: new Date(),
          callRef: ref ?? null,
          leaseUntil: new Date(Date.now() + leaseMs()),
          updatedAt: new Date(),
        })
        .where(and(ours, isNull(publications.callStartedAt), approvedNow))
        .returning({ id: publications.id });
      if (!marked) {
        // Still ours, so the post was edited (or its approval withdrawn) since the run read it: held.
        if (approvedNow && (await hold(row, token))) throw new HeldForApproval();
        throw new RunLostError();
      }
      committed = true;
    },
    async keepAlive() {
      const [kept] = await db
        .update(publications)
        .set({ leaseUntil: new Date(Date.now() + leaseMs()) })
        .where(and(ours, eq(publications.status, "publishing")))
        .returning({ id: publications.id });
      if (!kept) throw new RunLostError();
    },
  };
  return { started, run, committed: () => committed };
}

/** The run found the post unapproved or edited since its approval: nothing was sent. */
export class HeldForApproval extends Error {}

/**
 * DESIGN §11: the run's publication waits for the next approval (`held`), if the run still owns it and made
 * no platform call. Answers whether it did.
 */
export async function hold(row: Publication, claimToken: string) {
  const db = await getDb();
  const held = await db.transaction(async (tx) => {
    const [updated] = await tx
      .update(publications)
      .set({
        status: "held",
        claimToken: null,
        leaseUntil: null,
        nextAttemptAt: null,
        callRef: null,
        updatedAt: new Date(),
      })
      .where(
        and(
          eq(publications.id, row.id),
          eq(publications.claimToken, claimToken),
          isNull(publications.callStartedAt),
        ),
      )
      .returning();
    if (updated) await settlePostStatus(updated.postId, tx);
    return updated;
  });
  if (held) log.info("publication_held", { publicationId: row.id, reason: "post_not_approved" });
  return Boolean(held);
}

export const OUTCOME_UNKNOWN_ANSWERED =
  "The platform answered with an error after the post was sent to it, so it may or may not have been published. It is not sent again on its own: check the channel, then mark it posted or send it again.";

export const OUTCOME_UNKNOWN =
  "The worker stopped after sending the post to the platform and before it saved the answer, so it may or may not have been published. It is not sent again on its own: check the channel, then publish again if it is missing.";

/**
 * Nothing was posted: the publication is `scheduled` again, due at `nextAttemptAt` = `at` (so it can be
 * canceled, moved or held while it waits, DESIGN §11), and queued for `at`, if `claimed` (the run's claim)
 * still holds. Answers whether it was.
 */
async function requeue(boss: PgBoss, publicationId: string, claimed: SQL | undefined, at: Date, jobAt = at) {
  const db = await getDb();
  const [released] = await db
    .update(publications)
    .set({
      status: "scheduled",
      callStartedAt: null,
      claimToken: null,
      leaseUntil: null,
      nextAttemptAt: at,
      updatedAt: new Date(),
    })
    .where(and(eq(publications.id, publicationId), claimed))
    .returning({ id: publications.id });
  if (released) await enqueuePublication({ boss, publicationId, startAfter: jobAt });
  return Boolean(released);
}

/**
 * The run's channel is waiting out a platform's limit (channel-backoff): nothing was called, no attempt is
 * counted, and the publication is due again when the channel may be called.
 */
export async function postpone(boss: PgBoss, row: Publication, token: string, at: Date) {
  if (await requeue(boss, row.id, eq(publications.claimToken, token), at))
    log.info("publication_postponed", {
      publicationId: row.id,
      channelId: row.channelId,
      until: at.toISOString(),
    });
}

/**
 * A transient failure that posted nothing: retried (its backoff, or the 429's retry_after) or, after
 * PUBLISH_MAX_ATTEMPTS, failed: `scheduled` again, due at `nextAttemptAt`. A channel's lane runs it
 * (publish-worker.ts), so after a 429 it answers "again": the lane claims it again when the channel may be
 * called (and its job is LANE_JOB_GRACE_MS later, see there).
 */
export async function retryOrFail(
  boss: PgBoss,
  started: Publication,
  token: string,
  error: PlatformError,
): Promise<"again" | undefined> {
  const db = await getDb();
  const row = started;
  const platform = error.platform;
  const code: ErrorCode = error.status === 429 ? "rate_limited" : "provider_unavailable";
  if (started.attempts >= PUBLISH_MAX_ATTEMPTS) {
    await db.update(publications).set({ callStartedAt: null }).where(eq(publications.id, row.id));
    await fail(
      started,
      token,
      code,
      `${platform} kept failing after ${started.attempts} attempts: ${error.message}`,
      true,
    );
    return;
  }
  const delay = retryDelaySeconds(started.attempts, error.retryAfterSeconds);
  // A 429 limits the channel, not this publication: its other runs in this process wait without calling,
  // and this one is due with them, when the channel may be called (so it stays first in its channel).
  const nextAttemptAt =
    error.status === 429 && row.channelId
      ? backOffChannel(row.channelId, delay)
      : new Date(Date.now() + delay * 1000);
  // In a lane: the lane takes it again itself when the channel may be called (its job, a while later, is
  // only for the case this process is gone by then).
  const inLane = error.status === 429 && row.channelId;
  const jobAt = inLane ? new Date(nextAttemptAt.getTime() + LANE_JOB_GRACE_MS) : nextAttemptAt;
  if (!(await requeue(boss, row.id, eq(publications.claimToken, token), nextAttemptAt, jobAt))) return;
  metrics().publications.inc({ platform: row.channel, outcome: "retry_scheduled" });
  log.info("publication_retry_scheduled", {
    publicationId: row.id,
    delaySeconds: delay,
    attempt: started.attempts,
  });
  return inLane ? "again" : undefined;
}

/**
 * A call a run left behind when it died (its lease ran out mid-call). A platform that can reconcile says
 * how it ended (an Instagram call's container): posted → published; not posted → queued again, to make that
 * same call. Otherwise (or when the platform does not answer) no one can tell: failed
 * `publish_outcome_unknown`, never re-sent.
 */
async function settleCall(boss: PgBoss, row: Publication) {
  const reconcile = platformAdapters[row.channel].reconcile;
  const outcome = reconcile ? await reconcile(row) : null;
  if (outcome?.posted) return finish(row, row.claimToken, { status: "published", ...outcome.posted });
  if (!outcome) return fail(row, row.claimToken, "publish_outcome_unknown", OUTCOME_UNKNOWN);
  const stillLeft = and(
    eq(publications.status, "publishing"),
    isNotNull(publications.callStartedAt),
    row.claimToken ? eq(publications.claimToken, row.claimToken) : isNull(publications.claimToken),
  );
  if (await requeue(boss, row.id, stillLeft, new Date()))
    log.info("publication_call_not_made", { publicationId: row.id });
}

/** The platform says whether the call posted (Instagram's container); asked on at most PUBLISH_MAX_ATTEMPTS runs. */
export const reconcilable = (started: Publication) =>
  Boolean(platformAdapters[started.channel].reconcile) && started.attempts < PUBLISH_MAX_ATTEMPTS;

/** This run's call that may have posted: reconciled with the platform first (Instagram's container). */
export async function settleMadeCall(boss: PgBoss, publicationId: string) {
  const db = await getDb();
  const [row] = await db.select().from(publications).where(eq(publications.id, publicationId));
  if (row?.status === "publishing") await settleCall(boss, row);
}

/** Rows of `publicationIds` left `publishing` mid-call by a run whose lease ran out: settled from what the platform says. */
export async function settleAbandonedCall(boss: PgBoss, ...publicationIds: string[]) {
  if (publicationIds.length === 0) return;
  const db = await getDb();
  const rows = await db
    .select()
    .from(publications)
    .where(
      and(
        inArray(publications.id, publicationIds),
        eq(publications.status, "publishing"),
        isNotNull(publications.callStartedAt),
        lt(publications.leaseUntil, new Date()),
      ),
    );
  for (const row of rows) await settleCall(boss, row);
}

/**
 * The sweep (every PUBLISH_SWEEP_INTERVAL_SECONDS in each worker): publications a dead worker left behind.
 * Mid-call (call started, lease over) → settled as settleCall says, never re-sent blind. No call started and
 * no live owner, or due long ago and never run → queued again.
 */
export async function sweepPublications(boss: PgBoss) {
  const db = await getDb();
  const now = new Date();
  const stale = new Date(now.getTime() - REQUEUE_AFTER_MS);
  const abandoned = await db
    .select()
    .from(publications)
    .where(
      and(
        eq(publications.status, "publishing"),
        isNotNull(publications.callStartedAt),
        lt(publications.leaseUntil, now),
      ),
    )
    .limit(100);
  for (const row of abandoned) await settleCall(boss, row);
  const idle = await db
    .update(publications)
    .set({ nextAttemptAt: now })
    .where(
      and(
        isNull(publications.callStartedAt),
        or(
          and(
            eq(publications.status, "publishing"),
            or(
              lt(publications.leaseUntil, now),
              and(
                isNull(publications.leaseUntil),
                or(isNull(publications.nextAttemptAt), lt(publications.nextAttemptAt, stale)),
              ),
            ),
          ),
          and(
            eq(publications.status, "scheduled"),
            lt(publications.publishAt, stale),
            or(isNull(publications.nextAttemptAt), lt(publications.nextAttemptAt, stale)),
          ),
        ),
      ),
    )
    .returning({ id: publications.id });
  for (const { id } of idle) await enqueuePublication({ boss, publicationId: id, startAfter: now });
  if (abandoned.length + idle.length > 0) {
    log.info("publication_sweep", { abandonedCalls: abandoned.length, requeued: idle.length });
  }
}
