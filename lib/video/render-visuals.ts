import type { Post } from "@/db/schema";
import type { RenderRequest } from "./provider";

/**
 * What a post gives its video's scenes: the media plan's images (with their overlay text) first, then
 * the post's image assets; and the call to action for the end card, the caption's last line.
 */
export function visualsFromPost(
  post: Pick<Post, "mediaPlan" | "assets" | "caption"> | null,
): RenderRequest["visuals"] {
  if (!post) return undefined;
  const planned = post.mediaPlan.items
    .filter((item) => item.imageKey)
    .map((item) => ({ key: item.imageKey, overlayText: item.overlayText ?? null }));
  const assets = post.assets.filter((asset) => asset.type === "image").map((asset) => ({ url: asset.url }));
  const lines = post.caption
    .split("\n")
    .map((line) => line.replace(/#[\p{L}\p{N}_]+/gu, "").trim())
    .filter(Boolean);
  return { images: [...planned, ...assets], callToAction: lines.length > 1 ? (lines.at(-1) ?? null) : null };
}
