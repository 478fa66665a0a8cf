import "server-only";
import sharp from "sharp";
import { KIT_UPLOAD_FIELD, LOGO_LIMITS, LOGO_STORED_MAX_SIDE } from "@/lib/contracts/brand-kit-rules";
import { ApiError } from "@/lib/errors/api-error";
import { detectImageFormat } from "./avatar-image";

type LogoFormat = "png" | "jpeg" | "svg";

const invalid = (message: string) =>
  new ApiError("invalid_request", message, { details: [{ path: KIT_UPLOAD_FIELD, message }] });

const MAX_SIDE = Math.sqrt(LOGO_LIMITS.maxPixels);
/** librsvg's rasterising density is in DPI; SVGs default to 72 (one SVG unit a pixel). */
const SVG_BASE_DENSITY = 72;

/** An SVG by its text: an <svg> root element near the start (after an XML declaration, comments, a doctype). */
function looksLikeSvg(bytes: Buffer) {
  const head = bytes
    .subarray(0, 4096)
    .toString("utf8")
    .replace(/^\uFEFF/, "");
  return /^\s*(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*|<!DOCTYPE[^>]*>\s*)*<svg[\s>]/i.test(head);
}

function formatOf(bytes: Buffer): LogoFormat | null {
  const raster = detectImageFormat(bytes);
  if (raster === "png" || raster === "jpeg") return raster;
  return looksLikeSvg(bytes) ? "svg" : null;
}

/**
 * The uploaded logo, checked and made into the PNG that videos overlay: PNG and JPEG decoded completely
 * (a damaged file fails here) and re-encoded, an SVG rasterised by librsvg so its longer side is
 * LOGO_STORED_MAX_SIDE (drawn at that density, not scaled up from a small bitmap). Transparency is kept.
 */
export async function normalizeLogo(bytes: Buffer): Promise<{ data: Buffer; width: number; height: number }> {
  const format = formatOf(bytes);
  if (!format) {
    throw invalid(
      "The logo is not a PNG, JPEG or SVG file. Export it in one of those formats and upload it.",
    );
  }
  const label = format.toUpperCase();
  const damaged = () => invalid(`The ${label} file is damaged or incomplete. Export it again and upload it.`);
  let width: number | undefined;
  let height: number | undefined;
  try {
    ({ width, height } = await sharp(bytes, { failOn: "warning", limitInputPixels: false }).metadata());
  } catch {
    throw damaged();
  }
  if (!width || !height) throw damaged();
  if (format !== "svg" && width * height > LOGO_LIMITS.maxPixels) {
    throw invalid(
      `The logo is ${width}×${height} pixels; a logo can have at most ${MAX_SIDE}×${MAX_SIDE} (${LOGO_LIMITS.maxPixels.toLocaleString("en")} pixels). Export it smaller.`,
    );
  }
  // An SVG is drawn at the density that makes its longer side the stored size (within sane bounds).
  const density =
    format === "svg"
      ? Math.min(2400, Math.max(1, (SVG_BASE_DENSITY * LOGO_STORED_MAX_SIDE) / Math.max(width, height)))
      : undefined;
  try {
    const { data, info } = await sharp(bytes, {
      failOn: "warning",
      limitInputPixels: format === "svg" ? LOGO_LIMITS.maxPixels * 4 : LOGO_LIMITS.maxPixels,
      ...(density ? { density } : {}),
    })
      .rotate()
      .resize({
        width: LOGO_STORED_MAX_SIDE,
        height: LOGO_STORED_MAX_SIDE,
        fit: "inside",
        withoutEnlargement: true,
      })
      .png()
      .toBuffer({ resolveWithObject: true });
    return { data, width: info.width, height: info.height };
  } catch {
    throw damaged();
  }
}
