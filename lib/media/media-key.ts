/**
 * Media keys are relative paths such as `videos/vjb_…/video.mp4`, with random ids in them. They never
 * leave a folder, so the local adapter can map them onto its root and S3 onto object keys.
 */
const SAFE_KEY = /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_.-]+)*$/;

export function isSafeKey(key: string) {
  return SAFE_KEY.test(key) && !key.split("/").some((part) => part === ".." || part === ".");
}

export function assertSafeKey(key: string) {
  if (!isSafeKey(key)) throw new Error(`Unsafe media key: ${key}`);
}

const CONTENT_TYPES: Record<string, string> = {
  mp4: "video/mp4",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  png: "image/png",
  webp: "image/webp",
  mp3: "audio/mpeg",
  aac: "audio/aac",
  m4a: "audio/mp4",
  wav: "audio/wav",
  vtt: "text/vtt; charset=utf-8",
};

/** The content type a key's extension stands for. */
export function contentTypeOf(key: string) {
  return CONTENT_TYPES[key.split(".").pop()?.toLowerCase() ?? ""] ?? "application/octet-stream";
}
