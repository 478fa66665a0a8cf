import { randomBytes } from "node:crypto";
import type { AvatarImageFormat } from "@/lib/brands/avatar-image";

/**
 * Every upload gets its own folder with a random id, `avatars/{brandId}/{uploadId}/`: its image and the
 * frame trained from it live together, and replacing an avatar removes one folder.
 */
export function newAvatarImageKey(brandId: string, format: AvatarImageFormat) {
  const extension = format === "jpeg" ? "jpg" : format;
  return `avatars/${brandId}/${randomBytes(12).toString("base64url")}/image.${extension}`;
}

export function avatarUploadFolder(imageKey: string) {
  return imageKey.slice(0, imageKey.lastIndexOf("/"));
}
