import "server-only";
import { eq } from "drizzle-orm";
import type { PgBoss } from "pg-boss";
import { getDb } from "@/db/client";
import { type ChannelConnection, type Post, posts, publications } from "@/db/schema";
import { recordActivity } from "@/lib/activity/record-activity";
import type { Principal } from "@/lib/auth/authenticate";
import { requireBrandPermission } from "@/lib/brands/brand-access";
import type { PublicationPlacement } from "@/lib/contracts/enums";
import type { CreatePublicationInput } from "@/lib/contracts/publishing";
import { ApiError, notFound } from "@/lib/errors/api-error";
import { newId } from "@/lib/ids";
import { log } from "@/lib/log";
import { contentHash } from "@/lib/posts/content-hash";
import { getPostForPrincipal } from "@/lib/posts/get-post";
import { getQueue } from "@/lib/queue/boss";
import { getChannelForPrincipal } from "./channels";
import { instagramStoryVideoViolation } from "./platforms/instagram/adapter";
import { linkedinVideoRuleViolation } from "./platforms/linkedin/video";
import { settlePostStatus } from "./post-status";
import { enqueuePublication, ensurePublishQueue } from "./publication-queue";
import { PLATFORM_NAMES, publishRuleViolation } from "./publish-rules";
import { takeNextSlot } from "./schedule/take-next-slot";

const QUEUE_OPEN_TIMEOUT_MS = 3000;
/** Post statuses that are past approval (a brand that requires it may publish them). */
export const APPROVED_STATUSES = ["approved", "scheduled", "published"] as const;

export function notApproved(status: string, changedSinceApproval = false) {
  return new ApiError(
    "post_not_approved",
    changedSinceApproval
      ? "This brand requires approval before publishing, and the post changed since it was approved. An owner approves this version first."
      : `This brand requires approval before publishing, and the post is ${status.replace("_", " ")}. An owner approves it first.`,
    { details: { status } },
  );
}

/** The post is the version its last approval approved (one approved before versions were recorded: as it is). */
export function isApprovedVersion(post: Post, version = contentHash(post)) {
  return (
    (APPROVED_STATUSES as readonly string[]).includes(post.status) &&
    (post.approvedHash ?? version) === version
  );
}

/**
 * The one place that decides whether a post may go out on a channel (DESIGN §11), for create, reschedule,
 * send again and the run alike: the placement, a connection whose token works (409), the brand's approval of
 * this very version (409), the channel's rules (422). Answers the first reason it may not, as an ApiError.
 */
export async function publishBlock({
  requiresApproval,
  post,
  channel,
  placement,
}: {
  requiresApproval: boolean;
  post: Post;
  channel: ChannelConnection;
  placement: PublicationPlacement;
}): Promise<ApiError | null> {
  if (placement === "story" && channel.channel !== "instagram") {
    return new ApiError(
      "invalid_request",
      `placement: stories are published on Instagram only, and ${channel.accountName} is on ${PLATFORM_NAMES[channel.channel]}.`,
      { details: [{ path: "placement", message: "Stories are published on Instagram only." }] },
    );
  }
  if (channel.status === "needs_reconnect") {
    return new ApiError(
      "channel_reauth_required",
      `${channel.accountName} refused the stored token; an owner must reconnect it before publishing.`,
    );
  }
  if (requiresApproval && !isApprovedVersion(post))
    return notApproved(post.status, (APPROVED_STATUSES as readonly string[]).includes(post.status));
  const violation =
    publishRuleViolation(channel.channel, post, placement) ??
    (channel.channel === "linkedin" ? await linkedinVideoRuleViolation(post) : null) ??
    (placement === "story" ? await instagramStoryVideoViolation(post) : null);
  if (violation) {
    const { message, ...details } = violation;
    return new ApiError("publish_rule_violation", message, { details });
  }
  return null;
}

/** publishBlock as an answer: throws the reason a post may not go out. */
export async function assertPublishable(args: Parameters<typeof publishBlock>[0]) {
  const block = await publishBlock(args);
  if (block) throw block;
}

/** The publish queue, ready for a job; 503 provider_unavailable when it does not answer in time. */
export async function openQueue(): Promise<PgBoss> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      (async () => {
        const boss = await getQueue();
        await ensurePublishQueue(boss);
        return boss;
      })(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error("The queue did not answer in time.")),
          QUEUE_OPEN_TIMEOUT_MS,
        );
      }),
    ]);
  } catch (error) {
    log.error("publish_queue_unavailable", { error });
    throw new ApiError(
      "provider_unavailable",
      "The job queue cannot take publications right now; try again shortly.",
    );
  } finally {
    clearTimeout(timer);
  }
}

/**
 * POST /api/posts/{postId}/publications. Order: the post (404), the role, the channel (404, reconnect),
 * approval (409), the channel's rules (422); then the row and its queue entry are committed together and
 * the post moves to `scheduled`.
 */
export async function createPublication({
  principal,
  postId,
  input,
}: {
  principal: Principal;
  postId: string;
  input: CreatePublicationInput;
}) {
  const post = await getPostForPrincipal({ principal, postId, permission: "publication.create" });
  const { brand } = await requireBrandPermission({
    principal,
    brandId: post.brandId,
    permission: "publication.create",
  });
  const channel = await getChannelForPrincipal({
    principal,
    channelId: input.channelId,
    permission: "publication.create",
  });
  if (channel.brandId !== post.brandId) throw notFound("Channel");
  await assertPublishable({
    requiresApproval: brand.requiresApproval,
    post,
    channel,
    placement: input.placement,
  });

  const boss = await openQueue();
  const db = await getDb();
  const insert = async (publishAt: Date, slotAt: Date | null) => {
    const now = new Date();
    if (publishAt < now) publishAt = now;
    const id = newId("pub");
    await db.transaction(async (tx) => {
      await tx.insert(publications).values({
        id,
        brandId: post.brandId,
        postId: post.id,
        channelId: channel.id,
        channel: channel.channel,
        placement: input.placement,
        createdBy: principal.userId,
        status: "scheduled",
        publishAt,
        slotAt,
        createdAt: now,
        updatedAt: now,
      });
      await enqueuePublication({ boss, tx, publicationId: id, startAfter: publishAt });
      await recordActivity(tx, {
        brandId: post.brandId,
        actorId: principal.userId,
        action: "publication.scheduled",
        subjectType: "publication",
        subjectId: id,
        details: {
          postId: post.id,
          channel: channel.channel,
          channelId: channel.id,
          publishAt: publishAt.toISOString(),
        },
      });
      await tx.select({ id: posts.id }).from(posts).where(eq(posts.id, post.id)).for("update");
      await settlePostStatus(post.id, tx);
    });
    return { id, publishAt };
  };
  const { id, publishAt } =
    input.slot === "next"
      ? await takeNextSlot(channel, insert)
      : await insert(input.publishAt ? new Date(input.publishAt) : new Date(), null);
  log.info("publication_created", {
    publicationId: id,
    postId,
    placement: input.placement,
    channelId: channel.id,
    publishAt: publishAt.toISOString(),
  });
  return { publicationId: id, status: "scheduled" as const, publishAt: publishAt.toISOString() };
}
