import sharp from "sharp";
import { AVATAR_UPLOAD } from "@/lib/contracts/brands";
import { ApiError } from "@/lib/errors/api-error";

export type AvatarImageFormat = "png" | "jpeg" | "webp";

// Large enough for any camera photo, small enough that a 5 MB "decompression bomb" cannot exhaust memory.
const MAX_INPUT_PIXELS = 50_000_000;
// The stored copy only has to feed a 512×512 frame and the settings page.
const STORED_MAX_SIDE = 2048;

/** The image type by its leading bytes (its signature), whatever the file name or header claims. */
export function detectImageFormat(bytes: Uint8Array): AvatarImageFormat | null {
  const startsWith = (signature: number[], offset = 0) =>
    bytes.length >= offset + signature.length && signature.every((byte, i) => bytes[offset + i] === byte);
  if (startsWith([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "png";
  if (startsWith([0xff, 0xd8, 0xff])) return "jpeg";
  // RIFF....WEBP
  if (startsWith([0x52, 0x49, 0x46, 0x46]) && startsWith([0x57, 0x45, 0x42, 0x50], 8)) return "webp";
  return null;
}

const invalid = (message: string) =>
  new ApiError("invalid_request", message, { details: [{ path: "file", message }] });

/**
 * Decodes the upload completely and encodes a fresh copy: a truncated or corrupt file fails here, and
 * nothing of the original survives but its pixels (EXIF, GPS and colour-profile metadata are dropped).
 */
export async function normalizeAvatarImage(bytes: Buffer) {
  const format = detectImageFormat(bytes);
  if (!format)
    throw invalid(
      "The file is not a PNG, JPEG or WebP image. Upload a photo or logo in one of those formats.",
    );
  // failOn "warning": libvips reports a truncated JPEG or PNG as a warning and would otherwise pad it.
  const input = () => sharp(bytes, { failOn: "warning", limitInputPixels: MAX_INPUT_PIXELS });
  let width: number | undefined;
  let height: number | undefined;
  try {
    ({ width, height } = await input().metadata());
  } catch {
    throw invalid(
      `The ${format.toUpperCase()} file is damaged or incomplete. Export it again and upload it.`,
    );
  }
  if (!width || !height) throw invalid("The image has no size. Export it again and upload it.");
  if (Math.min(width, height) < AVATAR_UPLOAD.minSide) {
    throw invalid(
      `The image is ${width}×${height} pixels; an avatar needs at least ${AVATAR_UPLOAD.minSide}×${AVATAR_UPLOAD.minSide}.`,
    );
  }
  try {
    // rotate() applies the EXIF orientation before the metadata that carries it is dropped.
    const pipeline = input()
      .rotate()
      .resize({ width: STORED_MAX_SIDE, height: STORED_MAX_SIDE, fit: "inside", withoutEnlargement: true });
    const encoded =
      format === "png"
        ? pipeline.png()
        : format === "jpeg"
          ? pipeline.jpeg({ quality: 90, mozjpeg: true })
          : pipeline.webp({ quality: 90 });
    const { data, info } = await encoded.toBuffer({ resolveWithObject: true });
    return { data, format, width: info.width, height: info.height };
  } catch {
    throw invalid(
      `The ${format.toUpperCase()} file is damaged or incomplete. Export it again and upload it.`,
    );
  }
}
