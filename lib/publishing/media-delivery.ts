import "server-only";
import { buffer } from "node:stream/consumers";
import type { Post } from "@/db/schema";
import { getEnv } from "@/lib/config";
import { contentTypeOf, isSafeKey } from "@/lib/media/media-key";
import { foreignMediaKey } from "@/lib/media/media-owner";
import { getMediaStorage, storedMediaKey } from "@/lib/media/storage";
import { isPublicUrl } from "@/lib/security/ssrf";

/** How media reaches platforms that can fetch by URL: only when APP_URL is a public address. */
export const mediaDeliveryMode = (): "url" | "upload" => (isPublicUrl(getEnv().APP_URL) ? "url" : "upload");

export type MediaPayload = { kind: "url"; url: string } | { kind: "upload"; bytes: Buffer; filename: string };

/**
 * The media-store key of a post's video when it is a media file of this site, else null: a key (what the
 * post keeps for one of the brand's own videos) or a `/media/<key>?…` path.
 */
export function storedVideoKey(videoUrl: string): string | null {
  if (isSafeKey(videoUrl)) return videoUrl;
  const path = videoUrl.startsWith("/") ? videoUrl.split("?")[0] : null;
  return path?.startsWith("/media/") ? storedMediaKey(path) : null;
}

/**
 * Refuses a file of this site that is not the brand's (a post that names another brand's video or image):
 * checked where media is read for a platform, so a post saved before the check or changed behind the API
 * still never sends another brand's bytes.
 */
export async function assertBrandMedia(brandId: string, stored: string) {
  if (await foreignMediaKey(brandId, stored)) {
    throw new Error("it is a file of another brand; a post sends only its own brand's media");
  }
}

/**
 * A post's video as a platform gets it. A video in our media store goes by a freshly signed URL when the
 * platform can fetch it (APP_URL public, or a public S3 URL), else as bytes to upload. A video the user
 * linked from elsewhere (an absolute URL) goes by that URL.
 */
export async function videoPayload(videoUrl: string, brandId: string): Promise<MediaPayload> {
  await assertBrandMedia(brandId, videoUrl);
  const key = storedVideoKey(videoUrl);
  if (!key) {
    if (/^https?:\/\//i.test(videoUrl)) return { kind: "url", url: videoUrl };
    throw new Error("The post's video is not a media file of this site or an http(s) URL.");
  }
  const absolute = await signedAbsoluteUrl(key);
  if (isPublicUrl(absolute)) return { kind: "url", url: absolute };
  const bytes = await buffer(await getMediaStorage().read(key));
  return { kind: "upload", bytes, filename: key.split("/").pop() ?? "video.mp4" };
}

/** A stored key as an absolute, freshly signed URL (APP_URL's origin for the local store). */
async function signedAbsoluteUrl(key: string) {
  const signed = await getMediaStorage().signedUrl(key);
  return /^https?:\/\//i.test(signed) ? signed : `${getEnv().APP_URL ?? ""}${signed}`;
}

/**
 * Media for a platform that only fetches (Instagram): a stored key or `/media/…` path as a freshly signed
 * absolute URL, an absolute URL as it is. It reaches the platform only when APP_URL is public (the
 * connection says so otherwise).
 */
export async function fetchableMediaUrl(stored: string, brandId: string): Promise<string> {
  await assertBrandMedia(brandId, stored);
  if (/^https?:\/\//i.test(stored)) return stored;
  const key = storedMediaKey(stored.startsWith("/") ? stored.split("?")[0] : stored);
  if (!key) throw new Error("The media is not a file of this site or an http(s) URL.");
  return signedAbsoluteUrl(key);
}

/** One of the media plan's images, read from the media store for an upload. */
export type PlanImage = { bytes: Buffer; contentType: string; filename: string; altText: string };

/** The media plan's images (the items that have one, in order), read from the media store for upload. */
export async function mediaPlanImages(post: Pick<Post, "brandId" | "mediaPlan">): Promise<PlanImage[]> {
  const storage = getMediaStorage();
  const images: PlanImage[] = [];
  for (const item of post.mediaPlan.items) {
    const key = storedMediaKey(item.imageKey);
    if (!key) continue;
    await assertBrandMedia(post.brandId, key);
    images.push({
      bytes: await buffer(await storage.read(key)),
      contentType: contentTypeOf(key),
      filename: key.split("/").pop() ?? "image.jpg",
      altText: item.altText,
    });
  }
  return images;
}
