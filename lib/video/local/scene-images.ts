import "server-only";
import { Readable } from "node:stream";
import { buffer as readAll } from "node:stream/consumers";
import sharp from "sharp";
import { ownMediaKey } from "@/lib/media/media-owner";
import { getMediaStorage } from "@/lib/media/storage";
import { guardedFetch } from "@/lib/security/outbound-fetch";

/**
 * An image a scene shows: a media key of ours, or a URL (ours when signed by us, else fetched). `refused`
 * says why it must not be drawn (another brand's file): it is skipped with that warning.
 */
export type SceneImageSource = { key?: string; url?: string; overlayText?: string | null; refused?: string };

const REMOTE_IMAGE_MAX_BYTES = 10 * 1024 * 1024;
const REMOTE_IMAGE_TIMEOUT_MS = 8000;
/** A panning scene's image is this much larger than the frame, so the crop has room to move. */
export const PAN_MARGIN = 1.12;

async function fetchRemote(url: string, signal: AbortSignal): Promise<Buffer> {
  const response = await guardedFetch(url, {
    redirect: "error",
    signal: AbortSignal.any([signal, AbortSignal.timeout(REMOTE_IMAGE_TIMEOUT_MS)]),
  });
  if (!response.ok || !response.body) throw new Error(`it answered HTTP ${response.status}`);
  if (Number(response.headers.get("content-length") ?? 0) > REMOTE_IMAGE_MAX_BYTES) {
    throw new Error("it is larger than 10 MB");
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of Readable.fromWeb(response.body as never)) {
    size += chunk.byteLength;
    if (size > REMOTE_IMAGE_MAX_BYTES) throw new Error("it is larger than 10 MB");
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}

/** The bytes of one source, from the media store or (through the SSRF guard, with limits) the web. */
async function readSource(source: SceneImageSource, signal: AbortSignal): Promise<Buffer> {
  if (source.refused) throw new Error(source.refused);
  const key = source.key ?? (source.url ? ownMediaKey(source.url) : null);
  if (key) return readAll(await getMediaStorage().read(key));
  if (source.url) return fetchRemote(source.url, signal);
  throw new Error("it has no key or URL");
}

/** A source read and prepared: its file, its place in the sources, its overlay text. */
export type PreparedImage = { file: string; index: number; overlayText: string | null };

/**
 * Reads every source and writes each, cover-cropped (never stretched) to the frame enlarged by
 * PAN_MARGIN, as a JPEG for ffmpeg. A source that cannot be read or decoded is skipped with a warning.
 */
export async function prepareSceneImages(options: {
  sources: SceneImageSource[];
  width: number;
  height: number;
  fileFor: (index: number) => string;
  signal: AbortSignal;
}): Promise<{ images: PreparedImage[]; warnings: string[] }> {
  const { sources, width, height, fileFor, signal } = options;
  const warnings: string[] = [];
  const results = await Promise.all(
    sources.map(async (source, index): Promise<PreparedImage | null> => {
      try {
        const bytes = await readSource(source, signal);
        const file = fileFor(index);
        await sharp(bytes, { limitInputPixels: 64_000_000 })
          .rotate()
          .resize(even(width * PAN_MARGIN), even(height * PAN_MARGIN), {
            fit: "cover",
            position: "attention",
          })
          .flatten({ background: "#000000" })
          .jpeg({ quality: 88 })
          .toFile(file);
        return { file, index, overlayText: source.overlayText?.trim() || null };
      } catch (error) {
        if (signal.aborted) throw error;
        const what = source.url ? `the image ${source.url.slice(0, 120)}` : `image ${index + 1}`;
        warnings.push(`Skipped ${what}: ${(error as Error).message}`);
        return null;
      }
    }),
  );
  return { images: results.filter((image): image is PreparedImage => image !== null), warnings };
}

const even = (value: number) => Math.round(value / 2) * 2;

/**
 * A gradient in the brand's two colours, at `angle` degrees, as a PNG for ffmpeg, drawn at a quarter of
 * the frame's size: the graph scales it to the frame (a smooth gradient loses nothing), and drawing a
 * render's four at full size kept the encode waiting (about 50 ms of CPU before its graph was ready).
 */
export async function drawGradient(options: {
  file: string;
  width: number;
  height: number;
  from: string;
  to: string;
  angle: number;
}) {
  const { file, width, height, from, to, angle } = options;
  const radians = (angle * Math.PI) / 180;
  const [x, y] = [Math.cos(radians) / 2, Math.sin(radians) / 2];
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${Math.ceil(width / 4)}" height="${Math.ceil(height / 4)}">
<defs><linearGradient id="g" x1="${0.5 - x}" y1="${0.5 - y}" x2="${0.5 + x}" y2="${0.5 + y}">
<stop offset="0" stop-color="${from}"/><stop offset="0.55" stop-color="${from}"/><stop offset="1" stop-color="${to}"/>
</linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/></svg>`;
  await sharp(Buffer.from(svg)).png({ compressionLevel: 1 }).toFile(file);
}
