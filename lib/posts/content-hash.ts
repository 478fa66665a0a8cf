import { createHash } from "node:crypto";
import type { Post } from "@/db/schema";

/** JSON with object keys sorted, so the same content always serializes (and hashes) the same way. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value)
      .filter(([, entry]) => entry !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, entry]) => `${JSON.stringify(key)}:${canonical(entry)}`).join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

export type PostContent = Pick<Post, "caption" | "hashtags" | "mediaPlan" | "videoUrl">;

/**
 * The post's version (DESIGN §11 "Approval binds content"): a SHA-256 of everything a publication would
 * send: the caption, the hashtags, the media plan with each item's image (its storage key: a new image is
 * a new key; a background image job's state is not content) and the video. The post view shows it as `version` and the GET answers it as the ETag; an
 * approval names it and records it; a run sends only content whose version is the approved one.
 */
export function contentHash(post: PostContent): string {
  const { caption, hashtags, videoUrl } = post;
  const items = post.mediaPlan.items.map(({ imageJob: _job, ...item }) => item);
  const mediaPlan = { ...post.mediaPlan, items };
  return createHash("sha256")
    .update(canonical({ caption, hashtags, mediaPlan, videoUrl: videoUrl ?? null }))
    .digest("base64url");
}
