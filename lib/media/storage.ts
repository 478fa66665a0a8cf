import "server-only";
import { getEnv } from "@/lib/config";
import { signLocalMediaUrl } from "./local-signature";
import { localMediaStorage } from "./local-storage";
import { assertSafeKey, isSafeKey } from "./media-key";
import type { MediaStorage } from "./media-storage";
import { mediaUrlWindow } from "./media-url-lifetime";
import { s3MediaStorage } from "./s3-storage";

export {
  type ByteRange,
  MediaNotFoundError,
  type MediaSource,
  type MediaStat,
  type MediaStorage,
} from "./media-storage";
export { assertSafeKey };

const globalForMedia = globalThis as unknown as { brandStudioMedia?: { id: string; storage: MediaStorage } };

/** The store MEDIA_STORE names, made once per process (and again if the configuration changes, in tests). */
export function getMediaStorage(): MediaStorage {
  const env = getEnv();
  const id = JSON.stringify([
    env.MEDIA_STORE,
    env.DATA_DIR,
    env.S3_ENDPOINT,
    env.S3_REGION,
    env.S3_BUCKET,
    env.S3_ACCESS_KEY_ID,
    env.S3_FORCE_PATH_STYLE,
  ]);
  if (globalForMedia.brandStudioMedia?.id !== id) {
    globalForMedia.brandStudioMedia = {
      id,
      storage: env.MEDIA_STORE === "s3" ? s3MediaStorage(env) : localMediaStorage(),
    };
  }
  return globalForMedia.brandStudioMedia.storage;
}

/** A freshly signed URL for a stored key (what every API response carries), or null without a key. */
export async function signedMediaUrl(key: string | null | undefined): Promise<string | null> {
  return key ? getMediaStorage().signedUrl(key) : null;
}

/**
 * A signed URL on this site for a stored key, whatever the store: the app serves `/media/<key>` from S3 too.
 * For captions: a browser loads a <track> only from the page's origin (or with CORS, which a bucket may not
 * allow), while the video itself plays from any origin.
 */
export async function sameOriginMediaUrl(key: string | null | undefined): Promise<string | null> {
  if (!key) return null;
  assertSafeKey(key);
  return signLocalMediaUrl(key, mediaUrlWindow().expiresAt);
}

/**
 * A column that holds either one of our media keys or an outside URL, as the API shows it: a key freshly
 * signed, anything else as it was stored (a post's video sent as another site's link, a channel picture that
 * could not be copied).
 */
export async function signedKeyOrUrl(stored: string | null): Promise<string | null> {
  if (!stored) return null;
  return isSafeKey(stored) ? signedMediaUrl(stored) : stored;
}

/**
 * The media key a database column holds. Columns hold bare keys; rows written before media URLs were
 * signed hold the old public path `/media/<key>`, which maps onto the same key.
 */
export function storedMediaKey(stored: string | null | undefined): string | null {
  if (!stored) return null;
  const key = stored.startsWith("/media/") ? stored.slice("/media/".length) : stored;
  return isSafeKey(key) ? key : null;
}
