import "server-only";
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { brands } from "@/db/schema";
import { recordActivity } from "@/lib/activity/record-activity";
import type { Principal } from "@/lib/auth/authenticate";
import { brandChanged } from "@/lib/auth/membership-events";
import { log } from "@/lib/log";
import { getMediaStorage } from "@/lib/media/storage";
import { type BrandAccess, requireBrandPermission } from "./brand-access";
import { normalizeLogo } from "./brand-logo-image";
import { probeMusic } from "./brand-music-file";

type KitFile = "logo" | "music";
const COLUMN = { logo: "logoKey", music: "musicKey" } as const;

/** Each upload gets a new random key, so a signed URL of the old file never shows the new one. */
const newKey = (brandId: string, kind: KitFile, extension: string) =>
  `brands/${brandId}/${kind}/${randomBytes(12).toString("base64url")}.${extension}`;

/**
 * Points the brand's logo or music at `key` (null removes it) under the owner's permission, then removes
 * the file it replaced. The row is locked, so of two uploads at once each removes what it replaced.
 */
async function swapKitFile({
  principal,
  brandId,
  kind,
  key,
}: {
  principal: Principal;
  brandId: string;
  kind: KitFile;
  key: string | null;
}): Promise<BrandAccess> {
  const storage = getMediaStorage();
  const db = await getDb();
  const column = COLUMN[kind];
  const { previous, brand, role } = await db
    .transaction(async (tx) => {
      const { role } = await requireBrandPermission({ principal, brandId, permission: "brand.update", tx });
      const [current] = await tx.select().from(brands).where(eq(brands.id, brandId)).for("update");
      const [updated] = await tx
        .update(brands)
        .set({ [column]: key, updatedAt: new Date() })
        .where(eq(brands.id, brandId))
        .returning();
      await recordActivity(tx, {
        brandId,
        actorId: principal.userId,
        action: "brand.kit_updated",
        subjectType: "brand",
        subjectId: brandId,
        details: { [kind]: key ? "uploaded" : "removed" },
      });
      return { previous: current[column], brand: updated, role };
    })
    .catch(async (error: unknown) => {
      if (key) await storage.remove(key).catch(() => {});
      throw error;
    });
  brandChanged(brandId);
  if (previous && previous !== key) {
    await storage
      .remove(previous)
      .catch((error) => log.warn("brand_kit_old_file_not_removed", { brandId, kind, error }));
  }
  return { brand, role };
}

/** Checks, rasterises and stores a new logo (owners only); the old one is removed. */
export async function uploadBrandLogo(options: { principal: Principal; brandId: string; file: Buffer }) {
  const { principal, brandId, file } = options;
  // The permission first, so a viewer learns nothing from the file's checks; the swap checks it again.
  await requireBrandPermission({ principal, brandId, permission: "brand.update" });
  const logo = await normalizeLogo(file);
  const key = newKey(brandId, "logo", "png");
  await getMediaStorage().put(key, logo.data, "image/png");
  return swapKitFile({ principal, brandId, kind: "logo", key });
}

/** Checks the track with ffprobe and stores it as uploaded (owners only); the old one is removed. */
export async function uploadBrandMusic(options: { principal: Principal; brandId: string; file: Buffer }) {
  const { principal, brandId, file } = options;
  await requireBrandPermission({ principal, brandId, permission: "brand.update" });
  const { format } = await probeMusic(file);
  const key = newKey(brandId, "music", format);
  await getMediaStorage().put(key, file);
  return swapKitFile({ principal, brandId, kind: "music", key });
}

export function deleteBrandKitFile(options: { principal: Principal; brandId: string; kind: KitFile }) {
  return swapKitFile({ ...options, key: null });
}
