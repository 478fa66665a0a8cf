import sharp from "sharp";

/**
 * A real image with detail (a gradient, a circle and a bar), so the avatar trainer has something to
 * recognise. `flat` gives one solid colour instead.
 */
export async function makeImage({
  format = "png",
  width = 400,
  height = 300,
  flat = false,
  exif,
}: {
  format?: "png" | "jpeg" | "webp";
  width?: number;
  height?: number;
  flat?: boolean;
  exif?: Record<string, string>;
} = {}) {
  const drawing = flat
    ? `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#3366cc"/></svg>`
    : `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
         <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
           <stop offset="0" stop-color="#E0A458"/><stop offset="1" stop-color="#3B2F2F"/></linearGradient></defs>
         <rect width="100%" height="100%" fill="url(#g)"/>
         <circle cx="${width / 2}" cy="${height / 2}" r="${Math.min(width, height) / 3}" fill="#ffffff"/>
         <rect x="${width / 4}" y="${height * 0.7}" width="${width / 2}" height="${height / 10}" fill="#1F2937"/>
       </svg>`;
  let image = sharp(Buffer.from(drawing));
  if (exif) image = image.withExif({ IFD0: exif });
  return image.toFormat(format).toBuffer();
}
