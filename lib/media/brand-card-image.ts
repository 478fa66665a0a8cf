import "server-only";
import sharp, { type OverlayOptions } from "sharp";
import { BRAND_FONTS, type BrandFont, DEFAULT_BRAND_FONT } from "@/lib/contracts/brand-kit-rules";
import { readableTextOn } from "@/lib/ffmpeg/contrast";
import { brandFontFile } from "./brand-fonts";

const escapeMarkup = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

const clip = (text: string, max: number) =>
  text.length <= max ? text : `${text.slice(0, max).replace(/\s+\S*$/, "")}…`;

/**
 * A branded card image drawn locally (no network): a diagonal gradient from the primary to the secondary
 * colour, a band of the secondary colour, and the text centred in the brand's bundled font, white or
 * black (whichever reads better on the primary). What a media-plan item gets without an image model.
 */
export async function drawBrandCard(options: {
  width: number;
  height: number;
  primaryColor: string;
  secondaryColor: string;
  font: string;
  text: string;
  caption?: string;
}): Promise<Buffer> {
  const { width, height, primaryColor, secondaryColor, text, caption } = options;
  const font = (options.font in BRAND_FONTS ? options.font : DEFAULT_BRAND_FONT) as BrandFont;
  const ink = readableTextOn(primaryColor);
  const short = Math.min(width, height);
  const band = Math.round(short * 0.018);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
<stop offset="0" stop-color="${primaryColor}"/><stop offset="0.6" stop-color="${primaryColor}"/><stop offset="1" stop-color="${secondaryColor}"/>
</linearGradient>
<radialGradient id="r" cx="0.85" cy="0.15" r="0.6"><stop offset="0" stop-color="${secondaryColor}" stop-opacity="0.45"/><stop offset="1" stop-color="${secondaryColor}" stop-opacity="0"/></radialGradient></defs>
<rect width="100%" height="100%" fill="url(#g)"/><rect width="100%" height="100%" fill="url(#r)"/>
${text.trim() ? `<rect x="${Math.round(width * 0.08)}" y="${Math.round(height * 0.5 + short * 0.2)}" width="${Math.round(short * 0.18)}" height="${band}" fill="${secondaryColor}"/>` : ""}
</svg>`;
  const textWidth = Math.round(width * 0.84);
  const points = Math.round(short * (font === "display" ? 0.1 : 0.075));
  const layers: OverlayOptions[] = [];
  const words = text.trim();
  if (words) {
    const headline = await sharp({
      text: {
        text: `<span foreground="${ink}">${escapeMarkup(clip(words, 90))}</span>`,
        fontfile: brandFontFile(font, "bold"),
        font: `${BRAND_FONTS[font].family} ${points}`,
        width: textWidth,
        dpi: 72,
        rgba: true,
        wrap: "word",
        align: "left",
      },
    })
      .png()
      .toBuffer({ resolveWithObject: true });
    const top = Math.max(0, Math.round(height * 0.5 + short * 0.17 - headline.info.height));
    layers.push({ input: headline.data, left: Math.round(width * 0.08), top });
  }
  if (caption?.trim()) {
    const small = await sharp({
      text: {
        text: `<span foreground="${ink}">${escapeMarkup(clip(caption.trim(), 140))}</span>`,
        fontfile: brandFontFile(font, "regular"),
        font: `${BRAND_FONTS[font].family} ${Math.round(points * 0.42)}`,
        width: textWidth,
        dpi: 72,
        rgba: true,
        wrap: "word",
        align: "left",
      },
    })
      .png()
      .toBuffer({ resolveWithObject: true });
    layers.push({
      input: small.data,
      left: Math.round(width * 0.08),
      top: Math.round(height * 0.5 + short * 0.25),
    });
  }
  return sharp(Buffer.from(svg)).composite(layers).jpeg({ quality: 88, mozjpeg: true }).toBuffer();
}
