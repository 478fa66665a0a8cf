import "server-only";
import { randomBytes } from "node:crypto";
import { log } from "@/lib/log";
import { isSafeKey } from "@/lib/media/media-key";
import { getMediaStorage } from "@/lib/media/storage";
import { guardedFetch } from "@/lib/security/outbound-fetch";

/** Profile pictures are small; anything bigger is not one. */
const MAX_AVATAR_BYTES = 2 * 1024 * 1024;
const FETCH_TIMEOUT_MS = 5_000;
const EXTENSIONS: Record<string, string> = { "image/jpeg": "jpg", "image/png": "png", "image/webp": "webp" };

/**
 * A copy of the account's picture in our media store, under the channel: the platforms hand out CDN links
 * that expire (Instagram's in days, LinkedIn's in weeks), so a connection that kept the link would show a
 * broken picture later. Returns the key, or null when the picture cannot be fetched or is not a JPEG, PNG
 * or WebP under 2 MB (the connection then keeps the platform's link, which works while it lives).
 */
export async function keepChannelAvatar(channelId: string, url: string): Promise<string | null> {
  const host = URL.canParse(url) ? new URL(url).host : "";
  try {
    // Through the SSRF guard: the link comes from the platform's answer, which we do not control.
    const response = await guardedFetch(url, {
      redirect: "follow",
      signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
    });
    const type = response.headers.get("content-type")?.split(";")[0].trim().toLowerCase() ?? "";
    const extension = EXTENSIONS[type];
    const declared = Number(response.headers.get("content-length") ?? 0);
    if (!response.ok || !extension || declared > MAX_AVATAR_BYTES) {
      await response.body?.cancel();
      throw new Error(`HTTP ${response.status}, ${type || "no content type"}, ${declared} bytes declared`);
    }
    const bytes = new Uint8Array(await response.arrayBuffer());
    if (bytes.length === 0 || bytes.length > MAX_AVATAR_BYTES) throw new Error(`${bytes.length} bytes`);
    // A new name per copy: a reconnect's picture is never served from a cache of the old one.
    const key = `channels/${channelId}/avatar-${randomBytes(6).toString("hex")}.${extension}`;
    await getMediaStorage().put(key, bytes, type);
    return key;
  } catch (error) {
    // The host only: the link's query is a signature.
    log.warn("channel_avatar_not_kept", { channelId, host, error: (error as Error).message });
    return null;
  }
}

/** Removes our copy (nothing to do for a platform's link). */
export async function removeChannelAvatar(stored: string | null | undefined) {
  if (!stored || !isSafeKey(stored)) return;
  await getMediaStorage()
    .remove(stored)
    .catch((error) => log.warn("channel_avatar_not_removed", { key: stored, error }));
}
