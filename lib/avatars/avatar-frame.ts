import sharp from "sharp";

/** Side of the square avatar frame the video renderer overlays. */
export const AVATAR_FRAME_SIZE = 512;

const circleMask = Buffer.from(
  `<svg xmlns="http://www.w3.org/2000/svg" width="${AVATAR_FRAME_SIZE}" height="${AVATAR_FRAME_SIZE}">` +
    `<circle cx="${AVATAR_FRAME_SIZE / 2}" cy="${AVATAR_FRAME_SIZE / 2}" r="${AVATAR_FRAME_SIZE / 2}" fill="#fff"/></svg>`,
);

/**
 * Turns the uploaded image into the frame that avatar videos show: a square crop centred on the most
 * interesting region (sharp's attention strategy favours faces and detail), cut to a circle on a
 * transparent background, as PNG.
 */
export async function prepareAvatarFrame(image: Buffer): Promise<Buffer> {
  return sharp(image, { failOn: "warning" })
    .resize(AVATAR_FRAME_SIZE, AVATAR_FRAME_SIZE, { fit: "cover", position: sharp.strategy.attention })
    .ensureAlpha()
    .composite([{ input: circleMask, blend: "dest-in" }])
    .png()
    .toBuffer();
}

// Below this spread of channel values (0 to 255) an image is one flat colour: nothing to recognise.
const MIN_DETAIL_STDEV = 2;

/** Why an image cannot serve as an avatar, as a sentence for the marketer, or null when it can. */
export async function findAvatarProblem(image: Buffer): Promise<string | null> {
  const { channels } = await sharp(image, { failOn: "warning" }).stats();
  const detail = Math.max(...channels.map((channel) => channel.stdev));
  return detail < MIN_DETAIL_STDEV
    ? "The image is a single flat colour, so there is nothing to show in a video. Upload a photo or a logo."
    : null;
}
