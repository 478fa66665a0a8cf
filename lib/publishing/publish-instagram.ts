import "server-only";
import { setTimeout as sleep } from "node:timers/promises";
import { and, eq, gt, min } from "drizzle-orm";
import { getDb } from "@/db/client";
import { type ChannelConnection, type Post, publications } from "@/db/schema";
import { getEnv } from "@/lib/config";
import { log } from "@/lib/log";
import { storedMediaKey } from "@/lib/media/storage";
import { oauthCredentials, saveOAuthCredentials } from "./channels";
import {
  createInstagramContainer,
  instagramContainerStatus,
  instagramPermalink,
  instagramPublishingLimit,
  publishInstagramContainer,
  refreshInstagramToken,
} from "./instagram";
import { fetchableMediaUrl } from "./media-delivery";
import { oauthCredentialsFrom } from "./oauth-connect";
import { PlatformError } from "./platform-error";
import type { PublishRun } from "./publish-run";

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

/** What an Instagram post carries: the post's video as a reel, else the media plan's images. */
export type InstagramMedia = { kind: "reel"; videoUrl: string } | { kind: "images"; imageUrls: string[] };

/** The media plan's generated images (in order), each by a freshly signed URL Instagram fetches. */
export async function instagramMedia(post: Pick<Post, "mediaPlan" | "videoUrl">): Promise<InstagramMedia> {
  if (post.videoUrl) return { kind: "reel", videoUrl: await fetchableMediaUrl(post.videoUrl) };
  const imageUrls: string[] = [];
  for (const item of post.mediaPlan.items) {
    const key = storedMediaKey(item.imageKey);
    if (key) imageUrls.push(await fetchableMediaUrl(key));
  }
  return { kind: "images", imageUrls };
}

/** The 24-hour publishing limit is used up; `resetAt` is when the oldest counted post leaves the window. */
export class InstagramLimitReached extends Error {
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

/**
 * An Instagram delivery in two steps. `prepare` may run again and again (nothing is posted): the 24-hour
 * limit, the containers (children first for a carousel) and their processing. `send` is media_publish, the
 * one call that posts, then the permalink (best effort: the post exists whatever it answers). A throttled or
 * failed media_publish is retried only when the container says it is still unpublished (FINISHED).
 */
export function instagramDelivery(
  accessToken: string,
  channel: ChannelConnection,
  caption: string,
  media: InstagramMedia,
) {
  const igUserId = channel.externalId;
  let creationId = "";
  /** Posts nothing and may run again: the daily limit, the containers, each polled to FINISHED. */
  const prepare = async (run: PublishRun) => {
    const limit = await instagramPublishingLimit(accessToken, igUserId);
    if (limit.used >= limit.total)
      throw new InstagramLimitReached(
        limit.used,
        limit.total,
        await limitResetAt(channel.id, limit.windowSeconds),
      );
    if (media.kind === "reel") {
      creationId = await createInstagramContainer(accessToken, igUserId, {
        kind: "reel",
        videoUrl: media.videoUrl,
        caption,
      });
    } else if (media.imageUrls.length === 1) {
      creationId = await createInstagramContainer(accessToken, igUserId, {
        kind: "image",
        imageUrl: media.imageUrls[0],
        caption,
      });
    } else {
      // Every child first (Instagram fetches them meanwhile), then each polled to FINISHED.
      const children: string[] = [];
      for (const imageUrl of media.imageUrls) {
        children.push(
          await createInstagramContainer(accessToken, igUserId, {
            kind: "image",
            imageUrl,
            carouselItem: true,
          }),
        );
      }
      for (const child of children) {
        await run.keepAlive();
        await waitUntilFinished(accessToken, child);
      }
      creationId = await createInstagramContainer(accessToken, igUserId, {
        kind: "carousel",
        children,
        caption,
      });
    }
    await run.keepAlive();
    await waitUntilFinished(accessToken, creationId);
  };
  /** media_publish, the one call that posts. */
  const publish = async () => {
    let mediaId: string;
    try {
      mediaId = await publishInstagramContainer(accessToken, igUserId, creationId);
    } catch (error) {
      if (!(error instanceof PlatformError) || error.kind !== "transient") throw error;
      // A 5xx may still have posted: retry only when the container is known to be unpublished.
      const status = await instagramContainerStatus(accessToken, creationId).catch(() => null);
      if (status?.code === "FINISHED") throw error;
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
    return {
      externalId: mediaId,
      permalink: permalink ?? `https://www.instagram.com/${channel.accountHandle?.replace(/^@/, "") ?? ""}`,
      publishedAt: new Date(),
    };
  };
  return async (run: PublishRun) => {
    await prepare(run);
    await run.commitCall();
    return publish();
  };
}
