import { and, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { brands } from "@/db/schema";
import type { Principal } from "@/lib/auth/authenticate";
import { brandChanged } from "@/lib/auth/membership-events";
import { normalizeAvatarImage } from "@/lib/brands/avatar-image";
import { getBrandForPrincipal } from "@/lib/brands/get-brand";
import { ApiError } from "@/lib/errors/api-error";
import { log } from "@/lib/log";
import { getMediaStorage } from "@/lib/media/storage";
import { avatarUploadFolder, newAvatarImageKey } from "./avatar-keys";
import { AVATAR_TRAINING_ESTIMATE_SECONDS, enqueueAvatarTraining } from "./avatar-training";

/**
 * Stores a new avatar image and starts its training. The image is decoded and re-encoded first, so a
 * bad file stores nothing. The new avatar replaces the old one, whose files are removed once the new
 * training is queued.
 */
export async function uploadAvatar({
  principal,
  brandId,
  file,
}: {
  principal: Principal;
  brandId: string;
  file: Buffer;
}) {
  // Who may first (403 before any 400 about the file, like every other upload), then what.
  await getBrandForPrincipal({ principal, brandId, permission: "brand.update" });
  const image = await normalizeAvatarImage(file);

  const storage = getMediaStorage();
  const imageKey = newAvatarImageKey(brandId, image.format);
  await storage.put(imageKey, image.data);

  const db = await getDb();
  const { previous, brand, role } = await db
    .transaction(async (tx) => {
      const { role } = await getBrandForPrincipal({ principal, brandId, permission: "brand.update", tx });
      // Locked, so of two uploads at once each sees the avatar the other replaced.
      const [current] = await tx
        .select({
          avatarStatus: brands.avatarStatus,
          avatarImageKey: brands.avatarImageKey,
          avatarFramesKey: brands.avatarFramesKey,
          avatarError: brands.avatarError,
          avatarTrainingEndsAt: brands.avatarTrainingEndsAt,
        })
        .from(brands)
        .where(eq(brands.id, brandId))
        .for("update");
      const now = new Date();
      const [updated] = await tx
        .update(brands)
        .set({
          avatarStatus: "training",
          avatarImageKey: imageKey,
          avatarFramesKey: null,
          avatarError: null,
          avatarTrainingEndsAt: new Date(now.getTime() + AVATAR_TRAINING_ESTIMATE_SECONDS * 1000),
          updatedAt: now,
        })
        .where(eq(brands.id, brandId))
        .returning();
      return { previous: current, brand: updated, role };
    })
    .catch(async (error: unknown) => {
      await storage.remove(avatarUploadFolder(imageKey));
      throw error;
    });
  brandChanged(brandId);

  try {
    await enqueueAvatarTraining({ brandId, imageKey });
  } catch (error) {
    // Without a job the brand would train forever: put the old avatar back and drop the new file.
    log.error("avatar_training_enqueue_failed", { brandId, error });
    await db
      .update(brands)
      .set(previous)
      .where(and(eq(brands.id, brandId), eq(brands.avatarImageKey, imageKey)));
    brandChanged(brandId);
    await storage.remove(avatarUploadFolder(imageKey));
    throw new ApiError(
      "provider_unavailable",
      "Avatar training cannot start right now, so the upload was not kept. Try again in a minute.",
    );
  }

  if (previous.avatarImageKey) {
    await storage.remove(avatarUploadFolder(previous.avatarImageKey)).catch((error) => {
      log.warn("avatar_old_files_not_removed", { brandId, error });
    });
  }
  return { brand, role };
}
