import "server-only";
import type { ChannelConnection } from "@/db/schema";
import { type OAuthCredentials, oauthCredentials, saveOAuthCredentials } from "@/lib/publishing/channels";
import { mediaPlanImages, type PlanImage } from "@/lib/publishing/media-delivery";
import { oauthCredentialsFrom } from "@/lib/publishing/oauth-connect";
import { PlatformError } from "@/lib/publishing/platform-error";
import type { PlatformAdapter, PublishRun } from "../adapter";
import {
  createLinkedInPost,
  findLinkedInPost,
  linkedinAuthor,
  linkedinCommentary,
  refreshLinkedInToken,
  uploadLinkedInImage,
} from "./client";
import { type LinkedInVideoFile, linkedinVideo, uploadLinkedInVideo } from "./video";

/** An access token closer than this to its expiry is refreshed before it is used. */
export const REFRESH_BEFORE_MS = 10 * 60_000;

/**
 * The access token to publish with: the stored one, or a refreshed one (saved, encrypted) when it expires
 * within REFRESH_BEFORE_MS. A token that expired with no refresh token left is `unauthorized` (reconnect).
 */
export async function freshLinkedInToken(channel: ChannelConnection): Promise<string> {
  const credentials = oauthCredentials(channel);
  if (credentials.accessTokenExpiresAt - Date.now() > REFRESH_BEFORE_MS) return credentials.accessToken;
  const refreshUsable =
    credentials.refreshToken &&
    (credentials.refreshTokenExpiresAt === null || credentials.refreshTokenExpiresAt > Date.now());
  if (!refreshUsable) {
    if (credentials.accessTokenExpiresAt > Date.now()) return credentials.accessToken;
    throw new PlatformError("LinkedIn", "unauthorized", "The access token expired and cannot be refreshed.");
  }
  const tokens = await refreshLinkedInToken(credentials.refreshToken as string);
  const next: OAuthCredentials = oauthCredentialsFrom(tokens, credentials);
  await saveOAuthCredentials(channel.id, next);
  return next.accessToken;
}

/**
 * Uploads the media (the video, or else the images), then creates the post; answers what the publication
 * records. Uploads are safe to redo; `run.commitCall()` marks the call made right before `/rest/posts`, the
 * one call that must not repeat; when it answers a 5xx or nothing, the author's recent posts say whether it was
 * made.
 */
export async function sendLinkedInPost(
  accessToken: string,
  channel: ChannelConnection,
  text: string,
  media: { images: PlanImage[]; video: LinkedInVideoFile | null },
  run: PublishRun,
) {
  const author = linkedinAuthor(channel.externalId);
  const uploaded: { urn: string; altText: string }[] = [];
  let video: { urn: string; title: string } | undefined;
  if (media.video) {
    video = {
      urn: await uploadLinkedInVideo(accessToken, author, media.video, run),
      title: media.video.title,
    };
  } else {
    for (const image of media.images) {
      uploaded.push({ urn: await uploadLinkedInImage(accessToken, author, image), altText: image.altText });
      await run.keepAlive();
    }
  }
  await run.commitCall();
  const since = new Date();
  try {
    const { urn, permalink } = await createLinkedInPost(accessToken, {
      author,
      text,
      images: uploaded,
      video,
    });
    return { externalId: urn, permalink, publishedAt: new Date() };
  } catch (error) {
    // A 5xx or no answer: the post may exist. The author's recent posts say whether it does; if LinkedIn
    // cannot be asked, or it is not there (yet), the error stands (the outcome is unknown).
    const mayExist =
      error instanceof PlatformError &&
      (error.kind === "unknown" || (error.kind === "transient" && error.status !== 429));
    if (!mayExist) throw error;
    const found = await findLinkedInPost(accessToken, author, linkedinCommentary(text), since).catch(
      () => null,
    );
    if (!found) throw error;
    return { externalId: found.urn, permalink: found.permalink, publishedAt: new Date() };
  }
}

type LinkedInMedia = { images: PlanImage[]; video: LinkedInVideoFile | null };

/** LinkedIn: a refreshed token, one video or images (uploaded first), then the post. */
export const linkedinAdapter: PlatformAdapter<LinkedInMedia> = {
  freshCredentials: freshLinkedInToken,
  async prepareMedia(post) {
    // A LinkedIn post carries one video or images: the post's video wins over its media plan's images.
    const video = await linkedinVideo(post);
    if (video && "violation" in video) return { violation: video.violation };
    return { media: { images: video ? [] : await mediaPlanImages(post), video: video?.file ?? null } };
  },
  send: ({ credential, channel, text, media }, run) =>
    sendLinkedInPost(credential, channel, text, media, run),
};
