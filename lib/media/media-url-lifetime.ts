import { getEnv } from "@/lib/config";

/**
 * When a media URL signed now is signed "at", and when it expires. The signing time is rounded down to a
 * step of a tenth of the lifetime (at most an hour), so the same URL comes back for a while: a status
 * that did not change keeps its ETag, and a browser keeps its cached copy. A URL therefore lives between
 * 90 % of MEDIA_URL_TTL_SECONDS and all of it.
 */
export function mediaUrlWindow(nowMs = Date.now(), ttlSeconds = getEnv().MEDIA_URL_TTL_SECONDS) {
  const step = Math.max(1, Math.min(3600, Math.floor(ttlSeconds / 10)));
  const now = Math.floor(nowMs / 1000);
  const signedAt = now - (now % step);
  return { signedAt, expiresAt: signedAt + ttlSeconds, ttlSeconds };
}
