import "server-only";
import { randomUUID } from "node:crypto";
import { and, eq, isNotNull, isNull, lt, lte, or, type SQL, sql } from "drizzle-orm";
import type { PgBoss } from "pg-boss";
import { getDb } from "@/db/client";
import {
  brands,
  type ChannelConnection,
  channelConnections,
  type Publication,
  posts,
  publications,
} from "@/db/schema";
import { recordActivity } from "@/lib/activity/record-activity";
import type { ErrorCode } from "@/lib/api/error-codes";
import { ERROR_CODES } from "@/lib/api/error-codes";
import { getEnv } from "@/lib/config";
import { log } from "@/lib/log";
import { contentHash } from "@/lib/posts/content-hash";
import { SecretDecryptionError } from "@/lib/security/encrypt-secret";
import { metrics } from "@/lib/telemetry/metrics";
import { enqueueDeliveries } from "@/lib/webhooks/record-event";
import { channelCredentials } from "./channels";
import { publishBlock } from "./create-publication";
import { writePublicationEvent } from "./emit-publication-event";
import { linkedinVideo } from "./linkedin-video";
import { mediaPlanImages, type PlanImage, videoPayload } from "./media-delivery";
import { PlatformError } from "./platform-error";
import { settlePostStatus } from "./post-status";
import { enqueuePublication } from "./publication-queue";
import {
  freshInstagramToken,
  InstagramLimitReached,
  type InstagramMedia,
  instagramCallOutcome,
  instagramDelivery,
  instagramMedia,
} from "./publish-instagram";
import { freshLinkedInToken, sendLinkedInPost } from "./publish-linkedin";
import { publishedText } from "./publish-rules";
import { type PublishRun, RunLostError, type Sent } from "./publish-run";
import { callTelegram, type TelegramMessage, telegramPermalink } from "./telegram";

/** Calls to the platform in all (the first and the retries) before a transient failure is final. */
export const PUBLISH_MAX_ATTEMPTS = 5;
/** A run that was due this long ago and never started, or a retry this late, is queued again by the sweep. */
const REQUEUE_AFTER_MS = 60_000;

const leaseMs = () => getEnv().PUBLISH_TIMEOUT_MS + 5000;

/** Backoff for a transient failure: the platform's retry_after, else 2, 4, 8, … s (±20 %), at most 5 min. */
export function retryDelaySeconds(attempt: number, retryAfter: number | null) {
  if (retryAfter && retryAfter > 0) return Math.min(retryAfter, 3600);
  const base = Math.min(300, 2 ** attempt);
  return Math.max(1, Math.round(base * (0.8 + Math.random() * 0.4)));
}

async function finish(
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

const fail = (
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

/** Takes the row for this run: due and scheduled, or publishing with no platform call in flight and no live owner. */
async function claim(publicationId: string) {
  const db = await getDb();
  const now = new Date();
  const token = randomUUID();
  const dueBy = new Date(now.getTime() + 2000);
  const [row] = await db
    .update(publications)
    .set({
      status: "publishing",
      claimToken: token,
      leaseUntil: new Date(now.getTime() + leaseMs()),
      nextAttemptAt: null,
      startedAt: sql`coalesce(${publications.startedAt}, now())`,
      updatedAt: now,
    })
    .where(
      and(
        eq(publications.id, publicationId),
        or(
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
        ),
      ),
    )
    .returning();
  return row ? { row, token } : null;
}

/** The run found the post unapproved or edited since its approval: nothing was sent. */
class HeldForApproval extends Error {}

/**
 * DESIGN §11: the run's publication waits for the next approval (`held`), if the run still owns it and made
 * no platform call. Answers whether it did.
 */
async function hold(row: Publication, claimToken: string) {
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

const OUTCOME_UNKNOWN_ANSWERED =
  "The platform answered with an error after the post was sent to it, so it may or may not have been published. It is not sent again on its own: check the channel, then mark it posted or send it again.";

const OUTCOME_UNKNOWN =
  "The worker stopped after sending the post to the platform and before it saved the answer, so it may or may not have been published. It is not sent again on its own: check the channel, then publish again if it is missing.";

/**
 * One run of a publication (a pg-boss job). Never sends twice: the call is marked started (and committed)
 * before the platform is called, and only a claim whose row has no started call may send.
 */
export async function runPublication(publicationId: string, boss: PgBoss) {
  const claimed = await claim(publicationId);
  if (!claimed) {
    // Not ours to run: done, canceled, not yet due (rescheduled), owned by a live run, or left mid-call
    // by a run that died; the last is settled from what the platform says (settleCall; the sweep too).
    await settleAbandonedCall(boss, publicationId);
    return;
  }
  const { row, token } = claimed;
  const db = await getDb();
  const [context] = await db
    .select({ post: posts, channel: channelConnections, requiresApproval: brands.requiresApproval })
    .from(publications)
    .innerJoin(posts, eq(posts.id, publications.postId))
    .innerJoin(brands, eq(brands.id, publications.brandId))
    .leftJoin(channelConnections, eq(channelConnections.id, publications.channelId))
    .where(eq(publications.id, row.id));
  if (!context) return;
  const { post, channel } = context;
  if (!channel)
    return fail(row, token, "not_found", "The channel was disconnected before the post was published.");
  // DESIGN §11: on a brand that requires approval, only the approved version goes out. Checked here, and
  // again in the same statement that marks the platform call made (commitCall), right before it.
  const version = contentHash(post);
  const approvedNow = context.requiresApproval
    ? sql`exists (select 1 from ${posts} where ${posts.id} = ${publications.postId} and ${posts.status} in ('approved', 'scheduled', 'published') and coalesce(${posts.approvedHash}, ${version}) = ${version})`
    : undefined;
  // The same decision as create and reschedule: unapproved → held (until the next approval); else failed.
  const block = await publishBlock({
    requiresApproval: context.requiresApproval,
    post,
    channel,
    placement: row.placement,
  });
  if (block?.code === "post_not_approved") return hold(row, token);
  if (block) return fail(row, token, block.code, block.message);

  const unreadable = async () => {
    await markNeedsReconnect(
      channel.id,
      "The stored token cannot be read (the encryption key changed). Reconnect the channel.",
    );
    return fail(
      row,
      token,
      "channel_reauth_required",
      "The stored token cannot be read; reconnect the channel.",
    );
  };
  /** A token that could not be read or refreshed: reconnect when it was refused, retry when unanswered. */
  const tokenFailure = async (error: unknown) => {
    if (error instanceof SecretDecryptionError) return unreadable();
    if (!(error instanceof PlatformError)) throw error;
    if (error.kind === "transient" || error.kind === "not_sent" || error.kind === "unknown")
      return fail(
        row,
        token,
        "provider_unavailable",
        `${error.platform} did not answer the token refresh: ${error.message}`,
        true,
      );
    await markNeedsReconnect(channel.id, `${error.platform} refused the stored token: ${error.message}`);
    return fail(
      row,
      token,
      "channel_reauth_required",
      `${error.platform} refused the stored token (${error.message}). Reconnect the channel.`,
    );
  };
  const text = publishedText(post);
  const mediaFailed = (error: unknown) =>
    fail(
      row,
      token,
      "internal_error",
      `The post's media could not be read: ${(error as Error).message}`,
      false,
    );
  // Everything that needs no platform post is done before the point of no return: credentials, a token
  // refresh, reading the media. A send may first do what posts nothing (uploads, Instagram's containers:
  // safe to redo) and calls run.commitCall() right before the call that must not repeat.
  let send: (run: PublishRun) => Promise<Sent>;
  if (channel.channel === "instagram") {
    let accessToken: string;
    try {
      accessToken = await freshInstagramToken(channel);
    } catch (error) {
      return tokenFailure(error);
    }
    let media: InstagramMedia;
    try {
      media = await instagramMedia(post, row.placement);
    } catch (error) {
      return mediaFailed(error);
    }
    // A container an earlier try sent media_publish with (it may have posted, or be published again).
    const earlier = row.callRef ? { containerId: row.callRef, since: row.startedAt ?? row.createdAt } : null;
    send = instagramDelivery(accessToken, channel, text, media, earlier);
  } else if (channel.channel === "linkedin") {
    let accessToken: string;
    try {
      accessToken = await freshLinkedInToken(channel);
    } catch (error) {
      return tokenFailure(error);
    }
    // A LinkedIn post carries one video or images: the post's video wins over its media plan's images.
    let video: Awaited<ReturnType<typeof linkedinVideo>> = null;
    let images: Awaited<ReturnType<typeof mediaPlanImages>> = [];
    try {
      video = await linkedinVideo(post);
      if (!video) images = await mediaPlanImages(post);
    } catch (error) {
      return mediaFailed(error);
    }
    if (video && "violation" in video)
      return fail(row, token, "publish_rule_violation", video.violation.message);
    const media = { images, video: video?.file ?? null };
    send = (run) => sendLinkedInPost(accessToken, channel, text, media, run);
  } else {
    let botToken: string;
    // The post's video, else the media plan's images (a photo, or an album of 2 to 10).
    let media: TelegramMedia = null;
    try {
      botToken = channelCredentials(channel).botToken;
    } catch {
      return unreadable();
    }
    try {
      if (post.videoUrl) media = { video: await videoPayload(post.videoUrl, post.brandId) };
      else {
        const images = await mediaPlanImages(post);
        if (images.length > 0) media = { images };
      }
    } catch (error) {
      return mediaFailed(error);
    }
    send = async (run) => {
      await run.commitCall();
      return sendTelegram(botToken, channel.externalId, text, media);
    };
  }

  // An attempt: counted, with a fresh lease. Nothing is posted until commitCall.
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
  if (!started) return;
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

  try {
    const sent = await send(run);
    return finish(started, token, { status: "published", ...sent });
  } catch (error) {
    if (error instanceof HeldForApproval) return;
    if (error instanceof RunLostError) {
      log.warn("publication_run_lost", { publicationId: row.id, committed });
      return;
    }
    if (error instanceof InstagramLimitReached)
      return fail(started, token, "rate_limited", error.message, true);
    return platformFailure(boss, started, token, channel, error, committed);
  }
}

/**
 * A platform call failed. `callMade`: after the point of no return (the post may exist), else while
 * preparing (nothing was posted, so even an unanswered call may run again).
 */
async function platformFailure(
  boss: PgBoss,
  started: Publication,
  token: string,
  channel: ChannelConnection,
  error: unknown,
  callMade: boolean,
) {
  const row = started;
  if (!(error instanceof PlatformError)) {
    log.error("publication_call_failed", { publicationId: row.id, error });
    if (!callMade)
      return fail(
        started,
        token,
        "internal_error",
        `Preparing the post failed: ${(error as Error).message}`,
        false,
      );
    return fail(started, token, "publish_outcome_unknown", OUTCOME_UNKNOWN);
  }
  const platform = error.platform;
  log.warn("publication_platform_error", {
    publicationId: row.id,
    kind: error.kind,
    status: error.status,
    message: error.message,
    attempt: started.attempts,
  });
  switch (error.kind) {
    case "unknown":
      // Before the point of no return nothing was posted, so an unanswered call is retried like a 5xx.
      if (callMade) {
        if (reconcilable(channel, started)) return settleMadeCall(boss, row.id);
        return fail(started, token, "publish_outcome_unknown", `${error.message} ${OUTCOME_UNKNOWN}`);
      }
      return retryOrFail(boss, started, token, error);
    case "unauthorized":
      await markNeedsReconnect(channel.id, `${platform} refused the token: ${error.message}`);
      return fail(
        started,
        token,
        "channel_reauth_required",
        `${platform} refused the token (${error.message}). Reconnect the channel.`,
      );
    case "rejected":
      if (error.status === 403) {
        await markNeedsReconnect(channel.id, `${platform} refused to post: ${error.message}`);
        return fail(
          started,
          token,
          "channel_reauth_required",
          channel.channel === "telegram"
            ? `Telegram refused to post (${error.message}). Check the bot is still an administrator, then reconnect.`
            : `${platform} refused to post (${error.message}). Reconnect the channel to grant posting again.`,
        );
      }
      return fail(started, token, "publish_rule_violation", `${platform} refused the post: ${error.message}`);
    default:
      // A 5xx after the call that cannot be undone (a gateway's 502 or 504 after the platform processed
      // it) may have posted: never a blind retry. A 429, or a request that never reached it, posted nothing.
      if (callMade && error.kind === "transient" && error.status !== 429) {
        if (reconcilable(channel, started)) return settleMadeCall(boss, row.id);
        return fail(
          started,
          token,
          "publish_outcome_unknown",
          `${error.message} ${OUTCOME_UNKNOWN_ANSWERED}`,
        );
      }
      return retryOrFail(boss, started, token, error);
  }
}

/**
 * Nothing was posted: the publication is `scheduled` again, due at `nextAttemptAt` = `at` (so it can be
 * canceled, moved or held while it waits, DESIGN §11), and queued for `at`, if `claimed` (the run's claim)
 * still holds. Answers whether it was.
 */
async function requeue(boss: PgBoss, publicationId: string, claimed: SQL | undefined, at: Date) {
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
  if (released) await enqueuePublication({ boss, publicationId, startAfter: at });
  return Boolean(released);
}

async function retryOrFail(boss: PgBoss, started: Publication, token: string, error: PlatformError) {
  const db = await getDb();
  const row = started;
  const platform = error.platform;
  const code: ErrorCode = error.status === 429 ? "rate_limited" : "provider_unavailable";
  if (started.attempts >= PUBLISH_MAX_ATTEMPTS) {
    await db.update(publications).set({ callStartedAt: null }).where(eq(publications.id, row.id));
    return fail(
      started,
      token,
      code,
      `${platform} kept failing after ${started.attempts} attempts: ${error.message}`,
      true,
    );
  }
  const delay = retryDelaySeconds(started.attempts, error.retryAfterSeconds);
  const nextAttemptAt = new Date(Date.now() + delay * 1000);
  if (await requeue(boss, row.id, eq(publications.claimToken, token), nextAttemptAt))
    metrics().publications.inc({ platform: row.channel, outcome: "retry_scheduled" });
  log.info("publication_retry_scheduled", {
    publicationId: row.id,
    delaySeconds: delay,
    attempt: started.attempts,
  });
}

type TelegramMedia = { video: Awaited<ReturnType<typeof videoPayload>> } | { images: PlanImage[] } | null;

/** A multipart body: the fields, then each file under its name. */
function telegramForm(
  fields: Record<string, string>,
  files: Record<string, Pick<PlanImage, "bytes" | "contentType" | "filename">>,
) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  for (const [name, file] of Object.entries(files)) {
    form.set(name, new Blob([new Uint8Array(file.bytes)], { type: file.contentType }), file.filename);
  }
  return form;
}

/**
 * sendMessage; sendVideo by URL or as an upload; sendPhoto for one image; sendMediaGroup for an album of
 * 2 to 10 (the caption on its first photo; the permalink is the album's first message).
 */
async function sendTelegram(
  botToken: string,
  chatId: string,
  text: string,
  media: TelegramMedia,
): Promise<Sent> {
  let message: TelegramMessage;
  if (!media) {
    message = await callTelegram<TelegramMessage>(botToken, "sendMessage", { chat_id: chatId, text });
  } else if ("images" in media) {
    const { images } = media;
    if (images.length === 1) {
      message = await callTelegram<TelegramMessage>(
        botToken,
        "sendPhoto",
        telegramForm({ chat_id: chatId, caption: text }, { photo: images[0] }),
      );
    } else {
      const files = Object.fromEntries(images.map((image, index) => [`photo${index}`, image]));
      const album = images.map((_, index) => ({
        type: "photo",
        media: `attach://photo${index}`,
        ...(index === 0 ? { caption: text } : {}),
      }));
      [message] = await callTelegram<TelegramMessage[]>(
        botToken,
        "sendMediaGroup",
        telegramForm({ chat_id: chatId, media: JSON.stringify(album) }, files),
      );
    }
  } else if (media.video.kind === "url") {
    message = await callTelegram<TelegramMessage>(botToken, "sendVideo", {
      chat_id: chatId,
      video: media.video.url,
      caption: text,
      supports_streaming: true,
    });
  } else {
    const { bytes, filename } = media.video;
    message = await callTelegram<TelegramMessage>(
      botToken,
      "sendVideo",
      telegramForm(
        { chat_id: chatId, caption: text, supports_streaming: "true" },
        { video: { bytes, filename, contentType: "video/mp4" } },
      ),
    );
  }
  return {
    externalId: String(message.message_id),
    permalink: telegramPermalink(message.chat, message.message_id),
    publishedAt: new Date(message.date ? message.date * 1000 : Date.now()),
  };
}

async function markNeedsReconnect(channelId: string, message: string) {
  const db = await getDb();
  await db
    .update(channelConnections)
    .set({ status: "needs_reconnect", statusMessage: message, updatedAt: new Date() })
    .where(eq(channelConnections.id, channelId));
}

/**
 * A call a run left behind when it died (its lease ran out mid-call). An Instagram call's container says
 * how it ended: posted → published; not posted → queued again, to publish that same container. Otherwise
 * (or when Instagram does not answer) no one can tell: failed `publish_outcome_unknown`, never re-sent.
 */
async function settleCall(boss: PgBoss, row: Publication) {
  const outcome = row.channel === "instagram" ? await instagramCallOutcome(row) : null;
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

/** Instagram's container says whether media_publish posted; asked again on at most PUBLISH_MAX_ATTEMPTS runs. */
const reconcilable = (channel: ChannelConnection, started: Publication) =>
  channel.channel === "instagram" && started.attempts < PUBLISH_MAX_ATTEMPTS;

/** This run's call that may have posted: reconciled with the platform first (Instagram's container). */
async function settleMadeCall(boss: PgBoss, publicationId: string) {
  const db = await getDb();
  const [row] = await db.select().from(publications).where(eq(publications.id, publicationId));
  if (row?.status === "publishing") await settleCall(boss, row);
}

/** A row left `publishing` mid-call by a run whose lease ran out: settled from what the platform says. */
async function settleAbandonedCall(boss: PgBoss, publicationId: string) {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(publications)
    .where(
      and(
        eq(publications.id, publicationId),
        eq(publications.status, "publishing"),
        isNotNull(publications.callStartedAt),
        lt(publications.leaseUntil, new Date()),
      ),
    );
  if (row) await settleCall(boss, row);
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
