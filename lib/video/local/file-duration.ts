import "server-only";
import { findFfmpeg, findFfprobe } from "@/lib/ffmpeg/find-binary";
import { readProcess } from "@/lib/ffmpeg/run-process";

/**
 * A media file's length in seconds as its container says (what a player shows), or null when it cannot be
 * read: ffprobe's `format=duration`, else the "Duration:" line ffmpeg prints for its input (a bundled
 * ffmpeg comes without ffprobe).
 */
export async function fileDurationSeconds(file: string): Promise<number | null> {
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
