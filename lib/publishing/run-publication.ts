import "server-only";
import { eq, sql } from "drizzle-orm";
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
import { log } from "@/lib/log";
import { contentHash } from "@/lib/posts/content-hash";
import { SecretDecryptionError } from "@/lib/security/encrypt-secret";
import { channelWaitsUntil, noteChannelSend } from "./channel-backoff";
import { publishBlock } from "./create-publication";
import { finishPublished } from "./finish-published";
import { PlatformError } from "./platform-error";
import { platformAdapters } from "./platforms";
import { PublishingLimitReached, RunLostError } from "./platforms/adapter";
import {
  fail,
  HeldForApproval,
  hold,
  OUTCOME_UNKNOWN,
  OUTCOME_UNKNOWN_ANSWERED,
  postpone,
  reconcilable,
  retryOrFail,
  settleMadeCall,
  startAttempt,
} from "./publication-lease";
import { publishedText } from "./publish-rules";

/**
 * The run of a publication this process has claimed (`token`), from the channel's wait to the settlement. Never
 * sends twice: the call is marked started (and committed) before the platform is called, and only a claim
 * whose row has no started call may send. A channel lane runs it (publish-worker.ts): "again" when a 429 gave
 * it back for the lane to take again when the channel may be called (retryOrFail).
 */
export async function runClaimed(boss: PgBoss, row: Publication, token: string) {
  // The channel answered 429 to an earlier run here: no call until its retry_after has passed.
  const waitsUntil = channelWaitsUntil(row.channelId);
  if (waitsUntil) return postpone(boss, row, token, waitsUntil);
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
  const adapter = platformAdapters[channel.channel];
  // Everything that needs no platform post is done before the point of no return: credentials, a token
  // refresh, reading the media. A send may first do what posts nothing (uploads, Instagram's containers:
  // safe to redo) and calls run.commitCall() right before the call that must not repeat.
  let credential: string;
  try {
    credential = await adapter.freshCredentials(channel);
  } catch (error) {
    return tokenFailure(error);
  }
  let prepared: Awaited<ReturnType<typeof adapter.prepareMedia>>;
  try {
    prepared = await adapter.prepareMedia(post, row.placement);
  } catch (error) {
    return fail(
      row,
      token,
      "internal_error",
      `The post's media could not be read: ${(error as Error).message}`,
      false,
    );
  }
  if ("violation" in prepared) return fail(row, token, "publish_rule_violation", prepared.violation.message);

  const attempt = await startAttempt(row, token, approvedNow);
  if (!attempt) return;
  const { started, run } = attempt;
  let calledAt = 0;
  try {
    const sent = await adapter.send(
      { credential, channel, text, media: prepared.media, publication: row },
      {
        ...run,
        async commitCall(ref) {
          await run.commitCall(ref);
          calledAt = Date.now();
        },
      },
    );
    // The platform took it: one more send towards the channel's pace (channel-backoff).
    noteChannelSend(row.channelId, calledAt || Date.now());
    // Settled with the others that went out meanwhile (one transaction for them all).
    return finishPublished(started, token, sent);
  } catch (error) {
    if (error instanceof HeldForApproval) return;
    if (error instanceof RunLostError) {
      log.warn("publication_run_lost", { publicationId: row.id, committed: attempt.committed() });
      return;
    }
    if (error instanceof PublishingLimitReached)
      return fail(started, token, "rate_limited", error.message, true);
    return platformFailure(boss, started, token, channel, error, attempt.committed());
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
        if (reconcilable(started)) return settleMadeCall(boss, row.id);
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
        if (reconcilable(started)) return settleMadeCall(boss, row.id);
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

async function markNeedsReconnect(channelId: string, message: string) {
  const db = await getDb();
  await db
    .update(channelConnections)
    .set({ status: "needs_reconnect", statusMessage: message, updatedAt: new Date() })
    .where(eq(channelConnections.id, channelId));
}
