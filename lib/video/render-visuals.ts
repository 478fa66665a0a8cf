import "server-only";
import type { Post } from "@/db/schema";
import { foreignMediaKey } from "@/lib/media/media-owner";
import type { RenderRequest } from "./provider";

/**
 * What a post gives its video's scenes: the media plan's images (with their overlay text) first, then
 * the post's image assets; and the call to action for the end card, the caption's last line.
 */
export async function visualsFromPost(
  post: Pick<Post, "brandId" | "mediaPlan" | "assets" | "caption"> | null,
): Promise<RenderRequest["visuals"]> {
  if (!post) return undefined;
  const planned = post.mediaPlan.items
    .filter((item) => item.imageKey)
    .map((item) => ({ key: item.imageKey, overlayText: item.overlayText ?? null }));
  const assets = post.assets.filter((asset) => asset.type === "image").map((asset) => ({ url: asset.url }));
  const lines = post.caption
    .split("\n")
    .map((line) => line.replace(/#[\p{L}\p{N}_]+/gu, "").trim())
    .filter(Boolean);
  // Only the brand's own files of this site are drawn: an asset may name another brand's post image on
  // APP_URL (the key's owner is checked in the database); other sites' images go through the SSRF guard.
  const images = await Promise.all(
    [...planned, ...assets].map(async (source) => {
      const stored = "key" in source ? source.key : source.url;
      return stored && (await foreignMediaKey(post.brandId, stored))
        ? { ...source, refused: "it is a file of another brand" }
        : source;
    }),
  );
  return { images, callToAction: lines.length > 1 ? (lines.at(-1) ?? null) : null };
}
