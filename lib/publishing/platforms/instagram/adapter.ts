import "server-only";
import { setTimeout as sleep } from "node:timers/promises";
import { and, eq, gt, min } from "drizzle-orm";
import { getDb } from "@/db/client";
import {
  type ChannelConnection,
  channelConnections,
  type Post,
  type Publication,
  posts,
  publications,
} from "@/db/schema";
import { getEnv } from "@/lib/config";
import type { PublicationPlacement } from "@/lib/contracts/enums";
import { log } from "@/lib/log";
import { storedMediaKey } from "@/lib/media/storage";
import { videoJobOfFile } from "@/lib/posts/post-video";
import { oauthCredentials, saveOAuthCredentials } from "@/lib/publishing/channels";
import { fetchableMediaUrl, storedVideoKey } from "@/lib/publishing/media-delivery";
import { oauthCredentialsFrom } from "@/lib/publishing/oauth-connect";
import { PlatformError } from "@/lib/publishing/platform-error";
import { type PublishRuleViolation, publishedText } from "@/lib/publishing/publish-rules";
import { type PlatformAdapter, PublishingLimitReached, type PublishRun, type Sent } from "../adapter";
import {
  createInstagramContainer,
  instagramContainerStatus,
  instagramPermalink,
  instagramPublishingLimit,
  instagramRecentMedia,
  publishInstagramContainer,
  refreshInstagramToken,
} from "./client";

/**
 * A long-lived token (60 days) closer than this to its expiry is refreshed before it is used; Instagram
 * refreshes only tokens at least a day old, so a refused refresh of a still valid token is not fatal.
 */
export const INSTAGRAM_REFRESH_BEFORE_MS = 7 * 24 * 3600_000;

export async function freshInstagramToken(channel: ChannelConnection): Promise<string> {
  const credentials = oauthCredentials(channel);
  const left = credentials.accessTokenExpiresAt - Date.now();
  if (left > INSTAGRAM_REFRESH_BEFORE_MS) return credentials.accessToken;
  if (left <= 0) throw new PlatformError("Instagram", "unauthorized", "The access token expired.");
  try {
    const tokens = await refreshInstagramToken(credentials.accessToken);
    const next = oauthCredentialsFrom(tokens, credentials);
    await saveOAuthCredentials(channel.id, next);
    return next.accessToken;
  } catch (error) {
    if (error instanceof PlatformError && error.kind === "rejected") {
      log.warn("instagram_token_refresh_refused", { channelId: channel.id, message: error.message });
      return credentials.accessToken;
    }
    throw error;
  }
}

/**
 * What an Instagram publication carries: in the feed, the post's video as a reel, else the media plan's
 * images; as a story, the post's video, else the plan's first image.
 */
export type InstagramMedia =
  | { kind: "reel"; videoUrl: string }
  | { kind: "images"; imageUrls: string[] }
  | { kind: "story"; imageUrl: string }
  | { kind: "story"; videoUrl: string };

/** The post's media for Instagram, each by a freshly signed URL Instagram fetches. */
export async function instagramMedia(
  post: Pick<Post, "brandId" | "mediaPlan" | "videoUrl">,
  placement: PublicationPlacement = "feed",
): Promise<InstagramMedia> {
  const story = placement === "story";
  if (post.videoUrl) {
    const videoUrl = await fetchableMediaUrl(post.videoUrl, post.brandId);
    return story ? { kind: "story", videoUrl } : { kind: "reel", videoUrl };
  }
  const imageUrls: string[] = [];
  for (const item of post.mediaPlan.items) {
    const key = storedMediaKey(item.imageKey);
    if (key) imageUrls.push(await fetchableMediaUrl(key, post.brandId));
    if (story && imageUrls.length > 0) return { kind: "story", imageUrl: imageUrls[0] };
  }
  return { kind: "images", imageUrls };
}

/** Instagram's limits on a story's video, checked when the video is one of the brand's (its length known). */
export const INSTAGRAM_STORY_MIN_SECONDS = 3;
export const INSTAGRAM_STORY_MAX_SECONDS = 60;

/** The rule a story's video breaks, if any (checked when a publication is created and run). */
export async function instagramStoryVideoViolation(
  post: Pick<Post, "brandId" | "videoUrl">,
): Promise<PublishRuleViolation | null> {
  const key = post.videoUrl ? storedVideoKey(post.videoUrl) : null;
  const seconds = key ? (await videoJobOfFile(post.brandId, key))?.durationSeconds : null;
  if (seconds == null || (seconds >= INSTAGRAM_STORY_MIN_SECONDS && seconds <= INSTAGRAM_STORY_MAX_SECONDS))
    return null;
  const tooLong = seconds > INSTAGRAM_STORY_MAX_SECONDS;
  return {
    channel: "instagram",
    rule: "media_duration",
    limit: tooLong ? INSTAGRAM_STORY_MAX_SECONDS : INSTAGRAM_STORY_MIN_SECONDS,
    actual: seconds,
    withMedia: true,
    message: tooLong
      ? `The post's video lasts ${seconds} s; an Instagram story takes at most ${INSTAGRAM_STORY_MAX_SECONDS}. Use a shorter video, or publish it to the feed as a reel.`
      : `The post's video lasts ${seconds} s; an Instagram story takes at least ${INSTAGRAM_STORY_MIN_SECONDS}. Use a longer script.`,
  };
}

/** The 24-hour publishing limit is used up; `resetAt` is when the oldest counted post leaves the window. */
export class InstagramLimitReached extends PublishingLimitReached {
  constructor(
    readonly used: number,
    readonly total: number,
    readonly resetAt: Date,
  ) {
    super(
      `Instagram allows ${total} posts through the API in 24 hours and this account has made ${used}. Publish again after ${resetAt.toISOString()}.`,
    );
    this.name = "InstagramLimitReached";
  }
}

/** Poll a container until FINISHED: 1, 2, 3 … 5 s apart, within PUBLISH_TIMEOUT_MS. */
async function waitUntilFinished(accessToken: string, containerId: string) {
  const deadline = Date.now() + getEnv().PUBLISH_TIMEOUT_MS;
  for (let poll = 1; ; poll++) {
    const status = await instagramContainerStatus(accessToken, containerId);
    if (status.code === "FINISHED") return;
    if (status.code === "ERROR" || status.code === "EXPIRED" || status.code === "PUBLISHED") {
      throw new PlatformError(
        "Instagram",
        "rejected",
        `Instagram could not prepare the media (${status.code}${status.detail ? `: ${status.detail}` : ""}).`,
      );
    }
    if (Date.now() + poll * 1000 > deadline)
      throw new PlatformError("Instagram", "transient", "Instagram is still processing the media.", 503);
    await sleep(Math.min(5, poll) * 1000);
  }
}

async function limitResetAt(channelId: string, windowSeconds: number) {
  const db = await getDb();
  const since = new Date(Date.now() - windowSeconds * 1000);
  const [oldest] = await db
    .select({ at: min(publications.finishedAt) })
    .from(publications)
    .where(
      and(
        eq(publications.channelId, channelId),
        eq(publications.status, "published"),
        gt(publications.finishedAt, since),
      ),
    );
  return new Date((oldest?.at ? new Date(oldest.at).getTime() : Date.now()) + windowSeconds * 1000);
}

const profileUrl = (channel: ChannelConnection) =>
  `https://www.instagram.com/${channel.accountHandle?.replace(/^@/, "") ?? ""}`;

/** The container an earlier attempt sent media_publish with, and when. */
export type EarlierCall = { containerId: string; since: Date };

/**
 * The post a PUBLISHED container made. A container does not name its post, so it is the newest of the
 * account's latest posts with this caption made since the call (10 minutes of clock slack). If none is
 * found, the post is still known to exist: no id, and the account's page as the link.
 */
async function postOfContainer(
  accessToken: string,
  channel: ChannelConnection,
  caption: string | null,
  since: Date,
): Promise<Sent> {
  // A story has no caption to find it by (and the account's feed does not list it).
  if (caption === null) return { externalId: null, permalink: profileUrl(channel), publishedAt: new Date() };
  const recent = await instagramRecentMedia(accessToken, channel.externalId).catch((error: Error) => {
    log.warn("instagram_media_list_unavailable", { channelId: channel.id, message: error.message });
    return [];
  });
  const after = since.getTime() - 600_000;
  const post = recent.find(
    (item) => item.caption === caption && (!item.timestamp || Date.parse(item.timestamp) >= after),
  );
  const at = Date.parse(post?.timestamp ?? "");
  return {
    externalId: post?.id ?? null,
    permalink: post?.permalink ?? profileUrl(channel),
    publishedAt: Number.isFinite(at) ? new Date(at) : new Date(),
  };
}

/**
 * What a container says about the media_publish sent with it: it posted (and the post), it did not (and
 * whether it can still be published), or nothing when Instagram does not answer. Instagram publishes a
 * container once, so publishing the same one again can never post twice.
 */
async function containerOutcome(
  accessToken: string,
  channel: ChannelConnection,
  containerId: string,
  caption: string | null,
  since: Date,
): Promise<{ posted: Sent } | { posted: null; reusable: boolean } | null> {
  const status = await instagramContainerStatus(accessToken, containerId).catch(() => null);
  if (!status) return null;
  if (status.code === "PUBLISHED")
    return { posted: await postOfContainer(accessToken, channel, caption, since) };
  return { posted: null, reusable: status.code === "FINISHED" || status.code === "IN_PROGRESS" };
}

/**
 * How a call a dead run left ended, from its container: posted, not posted (safe to run again, with that
 * container while it can still be published), or null when it cannot be told.
 */
export async function instagramCallOutcome(publication: Publication) {
  if (!publication.callRef || !publication.channelId) return null;
  const db = await getDb();
  const [context] = await db
    .select({ post: posts, channel: channelConnections })
    .from(posts)
    .innerJoin(channelConnections, eq(channelConnections.id, publication.channelId))
    .where(eq(posts.id, publication.postId));
  if (!context) return null;
  try {
    const accessToken = await freshInstagramToken(context.channel);
    return await containerOutcome(
      accessToken,
      context.channel,
      publication.callRef,
      publication.placement === "story" ? null : publishedText(context.post),
      publication.callStartedAt ?? publication.updatedAt,
    );
  } catch {
    return null;
  }
}

/** The post's container (for a carousel, its children first, each polled to FINISHED). Posts nothing. */
async function makeContainer(
  accessToken: string,
  igUserId: string,
  caption: string,
  media: InstagramMedia,
  run: PublishRun,
) {
  if (media.kind === "story") return createInstagramContainer(accessToken, igUserId, media);
  if (media.kind === "reel")
    return createInstagramContainer(accessToken, igUserId, {
      kind: "reel",
      videoUrl: media.videoUrl,
      caption,
    });
  if (media.imageUrls.length === 1)
    return createInstagramContainer(accessToken, igUserId, {
      kind: "image",
      imageUrl: media.imageUrls[0],
      caption,
    });
  // Every child first (Instagram fetches them meanwhile), then each polled to FINISHED.
  const children: string[] = [];
  for (const imageUrl of media.imageUrls) {
    children.push(
      await createInstagramContainer(accessToken, igUserId, { kind: "image", imageUrl, carouselItem: true }),
    );
  }
  for (const child of children) {
    await run.keepAlive();
    await waitUntilFinished(accessToken, child);
  }
  return createInstagramContainer(accessToken, igUserId, { kind: "carousel", children, caption });
}

/**
 * An Instagram delivery in two steps. `prepare` may run again and again (nothing is posted): the container
 * an earlier attempt left, the 24-hour limit, the container and its processing. Then media_publish, the one
 * call that posts, with the container as the call's ref, then the permalink (best effort: the post exists
 * whatever it answers). When media_publish fails or its answer is lost, the container says whether it
 * posted; a later attempt publishes that same container while it can, so a post is never made twice.
 */
export function instagramDelivery(
  accessToken: string,
  channel: ChannelConnection,
  caption: string,
  media: InstagramMedia,
  earlier: EarlierCall | null,
) {
  const igUserId = channel.externalId;
  const outcomeOf = (containerId: string, since: Date) =>
    containerOutcome(accessToken, channel, containerId, media.kind === "story" ? null : caption, since);
  return async (run: PublishRun): Promise<Sent> => {
    let creationId = "";
    if (earlier) {
      const outcome = await outcomeOf(earlier.containerId, earlier.since);
      // Retried later; if it never answers, the last failure says the earlier try may have posted.
      if (!outcome)
        throw new PlatformError(
          "Instagram",
          "transient",
          "Instagram did not say whether the earlier try posted; check the account before publishing again.",
          503,
        );
      if (outcome.posted) return outcome.posted;
      if (outcome.reusable) creationId = earlier.containerId;
    }
    const limit = await instagramPublishingLimit(accessToken, igUserId);
    if (limit.used >= limit.total)
      throw new InstagramLimitReached(
        limit.used,
        limit.total,
        await limitResetAt(channel.id, limit.windowSeconds),
      );
    creationId ||= await makeContainer(accessToken, igUserId, caption, media, run);
    await run.keepAlive();
    await waitUntilFinished(accessToken, creationId);

    await run.commitCall(creationId);
    const since = new Date();
    let mediaId: string;
    try {
      mediaId = await publishInstagramContainer(accessToken, igUserId, creationId);
    } catch (error) {
      if (!(error instanceof PlatformError) || error.kind === "unauthorized") throw error;
      // The post may exist whatever the answer (a 5xx, a lost answer, "already published"): ask the container.
      const outcome = await outcomeOf(creationId, since);
      if (outcome?.posted) return outcome.posted;
      if (outcome) {
        if (error.kind !== "unknown") throw error;
        // Not posted yet, and the next try publishes this same container: a retry like a 5xx.
        throw new PlatformError("Instagram", "transient", error.message, 503);
      }
      throw new PlatformError(
        "Instagram",
        "unknown",
        `Instagram answered media_publish with: ${error.message}.`,
      );
    }
    const permalink = await instagramPermalink(accessToken, mediaId).catch((error: Error) => {
      log.warn("instagram_permalink_unavailable", { channelId: channel.id, message: error.message });
      return null;
    });
    return { externalId: mediaId, permalink: permalink ?? profileUrl(channel), publishedAt: new Date() };
  };
}

/** Instagram: a fresh long-lived token, the media by signed URLs, containers, and the container's word. */
export const instagramAdapter: PlatformAdapter<InstagramMedia> = {
  freshCredentials: freshInstagramToken,
  prepareMedia: async (post, placement) => ({ media: await instagramMedia(post, placement) }),
  send({ credential, channel, text, media, publication }, run) {
    // A container an earlier try sent media_publish with (it may have posted, or be published again).
    const earlier = publication.callRef
      ? { containerId: publication.callRef, since: publication.startedAt ?? publication.createdAt }
      : null;
    return instagramDelivery(credential, channel, text, media, earlier)(run);
  },
  reconcile: instagramCallOutcome,
};
