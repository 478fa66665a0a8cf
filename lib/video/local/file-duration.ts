import "server-only";
import fs from "node:fs";
import { findFfmpeg, findFfprobe } from "@/lib/ffmpeg/find-binary";
import { readProcess } from "@/lib/ffmpeg/run-process";

/** The top-level boxes read before giving up, and the largest `moov` read (a render's is about 30 kB). */
const MAX_BOXES = 32;
const MAX_MOOV_BYTES = 4 * 1024 * 1024;

/**
 * An MP4's length from its movie header (`moov` → `mvhd`: duration ÷ timescale), the value ffprobe reports as
 * `format=duration` for it, read in two small reads instead of starting a program (ffprobe takes 80–230 ms
 * here). Null for anything else, or a header that does not add up: the caller asks ffprobe then.
 */
export async function mp4DurationSeconds(file: string): Promise<number | null> {
  const handle = await fs.promises.open(file, "r").catch(() => null);
  if (!handle) return null;
  try {
    const { size } = await handle.stat();
    const header = Buffer.alloc(16);
    let offset = 0;
    for (let boxes = 0; boxes < MAX_BOXES && offset + 8 <= size; boxes++) {
      await handle.read(header, 0, 16, offset);
      const type = header.toString("latin1", 4, 8);
      if (boxes === 0 && type !== "ftyp") return null;
      let boxSize = header.readUInt32BE(0);
      let headerSize = 8;
      if (boxSize === 1) {
        boxSize = Number(header.readBigUInt64BE(8));
        headerSize = 16;
      } else if (boxSize === 0) boxSize = size - offset;
      if (boxSize < headerSize || offset + boxSize > size) return null;
      if (type === "moov") {
        if (boxSize > MAX_MOOV_BYTES) return null;
        const moov = Buffer.alloc(boxSize - headerSize);
        await handle.read(moov, 0, moov.length, offset + headerSize);
        return movieHeaderSeconds(moov);
      }
      offset += boxSize;
    }
    return null;
  } finally {
    await handle.close();
  }
}

/** `mvhd` among the `moov` box's children: version 0 has 32-bit times, version 1 64-bit. */
function movieHeaderSeconds(moov: Buffer): number | null {
  for (let at = 0; at + 8 <= moov.length; ) {
    const size = moov.readUInt32BE(at);
    if (size < 8 || at + size > moov.length) return null;
    if (moov.toString("latin1", at + 4, at + 8) === "mvhd") {
      const version = moov[at + 8];
      if (size < (version === 1 ? 44 : 32)) return null;
      const timescale = moov.readUInt32BE(at + (version === 1 ? 28 : 20));
      const duration = version === 1 ? Number(moov.readBigUInt64BE(at + 32)) : moov.readUInt32BE(at + 24);
      // All ones means "unknown" (a fragmented file keeps its length in the fragments).
      const unknown = version === 1 ? duration >= Number.MAX_SAFE_INTEGER : duration === 0xffffffff;
      return timescale > 0 && duration > 0 && !unknown ? duration / timescale : null;
    }
    at += size;
  }
  return null;
}

/**
 * A media file's length in seconds as its container says (what a player shows), or null when it cannot be
 * read: an MP4's movie header, else ffprobe's `format=duration`, else the "Duration:" line ffmpeg prints for
 * its input (a bundled ffmpeg comes without ffprobe).
 */
export async function fileDurationSeconds(file: string): Promise<number | null> {
  const fromHeader = await mp4DurationSeconds(file);
  if (fromHeader !== null) return fromHeader;
  const ffprobe = await findFfprobe();
  if (ffprobe) {
    const { code, stdout } = await readProcess(ffprobe, [
      "-v",
      "error",
      "-show_entries",
      "format=duration",
      "-of",
      "default=noprint_wrappers=1:nokey=1",
      file,
    ]).catch(() => ({ code: null, stdout: "" }));
    const seconds = code === 0 ? Number.parseFloat(stdout) : Number.NaN;
    if (Number.isFinite(seconds) && seconds > 0) return seconds;
  }
  const ffmpeg = await findFfmpeg();
  if (!ffmpeg) return null;
  // ffmpeg with an input and no output describes the input on stderr, and exits 1.
  const { stderr } = await readProcess(ffmpeg, ["-hide_banner", "-i", file]).catch(() => ({ stderr: "" }));
  const time = /Duration: (\d+):(\d+):(\d+(?:\.\d+)?)/.exec(stderr);
  return time ? Number(time[1]) * 3600 + Number(time[2]) * 60 + Number(time[3]) : null;
}

/**
 * The whole seconds a job records for a video (`durationSeconds`): the file's length rounded down, as a
 * player's clock shows it (a 33.6 s video reads 0:33 there, and so here).
 */
export const wholeSeconds = (seconds: number) => Math.floor(seconds + 1e-6);
