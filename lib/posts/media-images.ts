import "server-only";
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { type Brand, type MediaPlan, type Post, posts } from "@/db/schema";
import { generateModelImage, hasImageModel } from "@/lib/ai/image-model";
import type { Principal } from "@/lib/auth/authenticate";
import { requireBrandPermission } from "@/lib/brands/brand-access";
import type { PostView } from "@/lib/contracts/posts";
import { ApiError, notFound } from "@/lib/errors/api-error";
import { log } from "@/lib/log";
import { drawBrandCard } from "@/lib/media/brand-card-image";
import { getMediaStorage } from "@/lib/media/storage";
import { applyContentEdit } from "./apply-content-edit";
import { getPostForPrincipal } from "./get-post";
import { mediaImageSize, toMediaImage } from "./media-image-file";
import { toSignedPostView } from "./post-view";

type Item = MediaPlan["items"][number];

/** A new random key per image, so a signed URL of a replaced image never shows the new one. */
export const newImageKey = (postId: string) =>
  `posts/${postId}/media/${randomBytes(12).toString("base64url")}.jpg`;

/**
 * The post, its brand and the item at `index`, for a change to the item's image: a member of the brand
 * who may edit posts (editor), an item that exists (404) and is an image (400).
 */
async function imageItemOf(principal: Principal, postId: string, index: number) {
  const post = await getPostForPrincipal({ principal, postId, permission: "post.update" });
  const { brand } = await requireBrandPermission({
    principal,
    brandId: post.brandId,
    permission: "post.update",
  });
  const item = post.mediaPlan.items[index];
  if (!item) throw notFound("Media item");
  if (item.type !== "image") {
    const message = `Media item ${index} is a video; only image items have an image.`;
    throw new ApiError("invalid_request", message, { details: [{ path: "index", message }] });
  }
  return { post, brand, item };
}

/**
 * Points item `index` at `key` (null removes its image) and removes the file it replaced. The post row is
 * locked; if the item is gone or no longer an image by then, the new file is dropped and the answer is 404.
 */
async function swapItemImage(principal: Principal, postId: string, index: number, key: string | null) {
  const storage = getMediaStorage();
  const db = await getDb();
  const { previous, row } = await db
    .transaction(async (tx) => {
      const current = await getPostForPrincipal({
        principal,
        postId,
        permission: "post.update",
        tx,
        forUpdate: true,
      });
      const item = current.mediaPlan.items[index];
      if (item?.type !== "image") throw notFound("Media item");
      const items = current.mediaPlan.items.map((entry, i): Item => {
        if (i !== index) return entry;
        // A new image (or none) ends any background job for the old one: its result no longer applies.
        const { imageKey: _old, imageJob: _job, ...rest } = entry;
        return key ? { ...rest, imageKey: key } : rest;
      });
      const mediaPlan = { ...current.mediaPlan, items };
      const status = await applyContentEdit(tx, current, { ...current, mediaPlan });
      const [updated] = await tx
        .update(posts)
        .set({ mediaPlan, status, updatedAt: new Date() })
        .where(eq(posts.id, current.id))
        .returning();
      return { previous: item.imageKey ?? null, row: updated };
    })
    .catch(async (error: unknown) => {
      if (key) await storage.remove(key).catch(() => {});
      throw error;
    });
  if (previous && previous !== key) {
    await storage.remove(previous).catch((error) => log.warn("media_image_not_removed", { postId, error }));
  }
  return row;
}

/** What an image model is asked for: the item's description, its shape, the brand's colours; no text in it. */
export function imagePrompt(brand: Pick<Brand, "name" | "primaryColor" | "secondaryColor">, item: Item) {
  return [
    item.description,
    `Brand: ${brand.name}. Colour palette: ${brand.primaryColor} (primary) and ${brand.secondaryColor} (accent).`,
    `Aspect ratio ${item.aspectRatio}; a social media image. No text, letters or logos in the image.`,
  ].join("\n");
}

/** The item's branded card, drawn locally: no network, no cost. */
export function drawItemCard(brand: Brand, item: Item): Promise<Buffer> {
  const { width, height } = mediaImageSize(item.aspectRatio);
  return drawBrandCard({
    width,
    height,
    primaryColor: brand.primaryColor,
    secondaryColor: brand.secondaryColor,
    font: brand.font,
    text: item.overlayText ?? brand.name,
    caption: item.overlayText ? undefined : item.altText,
  });
}

/** The image model's picture for the item, as the item's JPEG (throws when the model fails). */
export async function modelItemImage(brand: Brand, item: Item, postId: string): Promise<Buffer> {
  const started = Date.now();
  const { bytes, model } = await generateModelImage({
    prompt: imagePrompt(brand, item),
    aspectRatio: item.aspectRatio,
  });
  log.info("media_image_generated", { postId, model, latencyMs: Date.now() - started });
  return toMediaImage(bytes, item.aspectRatio, "The generated image");
}

async function makeImage(brand: Brand, item: Item, post: Post): Promise<Buffer> {
  if (!hasImageModel()) return drawItemCard(brand, item);
  try {
    return await modelItemImage(brand, item, post.id);
  } catch (error) {
    log.warn("media_image_generation_failed", { postId: post.id, error });
    throw new ApiError(
      "generation_failed",
      "The image model did not return a usable image. Try again, or upload an image instead.",
    );
  }
}

/** Generates (or regenerates) item `index`'s image: the image model when configured, else a drawn card. */
export async function generateItemImage(options: {
  principal: Principal;
  postId: string;
  index: number;
}): Promise<PostView> {
  const { principal, postId, index } = options;
  const { post, brand, item } = await imageItemOf(principal, postId, index);
  const jpeg = await makeImage(brand, item, post);
  const key = newImageKey(postId);
  await getMediaStorage().put(key, jpeg, "image/jpeg");
  return toSignedPostView(await swapItemImage(principal, postId, index, key));
}

/** Replaces item `index`'s image with an upload, cover-cropped to the item's shape. */
export async function uploadItemImage(options: {
  principal: Principal;
  postId: string;
  index: number;
  file: Buffer;
}): Promise<PostView> {
  const { principal, postId, index, file } = options;
  const { item } = await imageItemOf(principal, postId, index);
  const jpeg = await toMediaImage(file, item.aspectRatio);
  const key = newImageKey(postId);
  await getMediaStorage().put(key, jpeg, "image/jpeg");
  return toSignedPostView(await swapItemImage(principal, postId, index, key));
}

/** Removes item `index`'s image; the item stays. */
export async function deleteItemImage(options: {
  principal: Principal;
  postId: string;
  index: number;
}): Promise<PostView> {
  const { principal, postId, index } = options;
  await imageItemOf(principal, postId, index);
  return toSignedPostView(await swapItemImage(principal, postId, index, null));
}
