import "server-only";
import sharp from "sharp";
import { KIT_UPLOAD_FIELD, MEDIA_IMAGE_LIMITS } from "@/lib/contracts/brand-kit-rules";
import type { ASPECT_RATIOS } from "@/lib/contracts/post-rules";
import { ApiError } from "@/lib/errors/api-error";

type AspectRatio = (typeof ASPECT_RATIOS)[number];

import { detectImageFormat } from "@/lib/brands/avatar-image";

/** The stored size of a media-plan image: the item's shape, the longer side MEDIA_IMAGE_LIMITS.longSide. */
export function mediaImageSize(aspectRatio: AspectRatio) {
  const [w, h] = aspectRatio.split(":").map(Number);
  const long = MEDIA_IMAGE_LIMITS.longSide;
  return w >= h
    ? { width: long, height: Math.round((long * h) / w) }
    : { width: Math.round((long * w) / h), height: long };
}

const invalid = (message: string) =>
  new ApiError("invalid_request", message, { details: [{ path: KIT_UPLOAD_FIELD, message }] });

/**
 * Any image made into a media-plan item's JPEG: decoded completely (a damaged file fails here),
 * turned upright, cover-cropped to the item's shape (never stretched), metadata dropped.
 */
export async function toMediaImage(bytes: Uint8Array, aspectRatio: AspectRatio, what = "The image") {
  const format = detectImageFormat(bytes);
  if (!format) throw invalid(`${what} is not a PNG, JPEG or WebP file. Upload one of those.`);
  const { width, height } = mediaImageSize(aspectRatio);
  try {
    return await sharp(bytes, { failOn: "warning", limitInputPixels: MEDIA_IMAGE_LIMITS.maxPixels })
      .rotate()
      .resize(width, height, { fit: "cover", position: "attention" })
      .flatten({ background: "#FFFFFF" })
      .jpeg({ quality: 88, mozjpeg: true })
      .toBuffer();
  } catch {
    throw invalid(
      `${what} is damaged, incomplete or larger than ${MEDIA_IMAGE_LIMITS.maxPixels.toLocaleString("en")} pixels. Export it again.`,
    );
  }
}
