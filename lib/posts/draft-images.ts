import "server-only";
import type { Brand, MediaPlan, Post } from "@/db/schema";
import { hasImageModel } from "@/lib/ai/image-model";
import { enforceRateLimit, rateLimitSubject } from "@/lib/api/rate-limit";
import type { Principal } from "@/lib/auth/authenticate";
import { ApiError } from "@/lib/errors/api-error";
import { log } from "@/lib/log";
import { getMediaStorage } from "@/lib/media/storage";
import { enqueueDraftImage, failDraftImage } from "./draft-image-worker";
import { drawItemCard, newImageKey } from "./media-images";

type Item = MediaPlan["items"][number];

/**
 * One image item of a new draft: its branded card, stored (no model, no cost). When the brand takes model
 * images and an image model is configured, the item is also marked `pending` for the background job,
 * counted against the caller's paid-image rate limit first; past that limit it is `failed` and says why
 * (the card stays).
 */
async function withCard(principal: Principal, brand: Brand, postId: string, item: Item): Promise<Item> {
  if (item.type !== "image") return item;
  const key = newImageKey(postId);
  await getMediaStorage().put(key, await drawItemCard(brand, item), "image/jpeg");
  if (brand.imageSource !== "model" || !hasImageModel()) return { ...item, imageKey: key };
  try {
    await enforceRateLimit({ bucket: "image", subject: rateLimitSubject(principal) });
    return { ...item, imageKey: key, imageJob: { state: "pending" } };
  } catch (error) {
    if (!(error instanceof ApiError) || error.code !== "rate_limited") throw error;
    const why = `The image rate limit was reached (${error.message}) The card stays; press Generate to make the model's image.`;
    return { ...item, imageKey: key, imageJob: { state: "failed", error: why } };
  }
}

/** New drafts' rows with every image item holding its card (and, for model images, its job's state). */
export async function withDraftImages(principal: Principal, brand: Brand, rows: Post[]): Promise<Post[]> {
  return Promise.all(
    rows.map(async (row) => {
      const items: Item[] = [];
      // One item at a time, so the rate limit counts items in plan order.
      for (const item of row.mediaPlan.items) items.push(await withCard(principal, brand, row.id, item));
      return { ...row, mediaPlan: { ...row.mediaPlan, items } };
    }),
  );
}

/** The drafts were not saved: their cards are no one's. */
export async function dropDraftImages(rows: Post[]) {
  const keys = rows.flatMap((row) => row.mediaPlan.items.flatMap((item) => item.imageKey ?? []));
  await Promise.all(
    keys.map((key) =>
      getMediaStorage()
        .remove(key)
        .catch(() => {}),
    ),
  );
}

/** After the drafts are saved: one background job per pending item (the answer does not wait for them). */
export async function queueDraftImages(rows: Post[]) {
  for (const row of rows) {
    for (const item of row.mediaPlan.items) {
      if (item.imageJob?.state !== "pending" || !item.imageKey) continue;
      const job = { postId: row.id, cardKey: item.imageKey };
      await enqueueDraftImage(job).catch(async (error: unknown) => {
        log.error("draft_image_not_queued", { postId: row.id, error });
        await failDraftImage(job);
      });
    }
  }
}
