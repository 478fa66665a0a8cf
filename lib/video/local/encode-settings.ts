import os from "node:os";
import { getEnv } from "@/lib/config";

export const FPS = 25;
/** Renders one process runs at once (the video worker's localConcurrency). */
export const RENDERS_PER_PROCESS = 1;

/**
 * ffmpeg threads for one render: VIDEO_RENDER_THREADS when set, else the machine's cores shared among
 * the renders this process runs at once. Set it lower when several worker processes share a machine
 * (cores ÷ workers), so they do not fight over the same cores.
 */
export function renderThreads() {
  const configured = getEnv().VIDEO_RENDER_THREADS;
  if (configured > 0) return configured;
  return Math.max(1, Math.floor(os.availableParallelism() / RENDERS_PER_PROCESS));
}

/**
 * The output settings of every local render: H.264 (still-image tuning) and AAC in an MP4 with the index
 * first (+faststart), at a constant frame rate, cut to `seconds` (the renderer's inputs end where the
 * video does, so it passes none). The render bench encodes its baseline with exactly these.
 *
 * The AAC coder is named, not left to the build: ffmpeg's "fast" coder, the default of the static
 * ffmpeg the renderer bundles, where newer builds default to "twoloop", which costs about three times
 * the CPU (for speech, a fifth of what the H.264 costs) and does not sound better for a synthetic voice at 96k.
 */
export function encodeSettings({ seconds, threads }: { seconds?: number; threads: number }) {
  return [
    "-c:v",
    "libx264",
    "-preset",
    "veryfast",
    "-tune",
    "stillimage",
    "-pix_fmt",
    "yuv420p",
    "-r",
    String(FPS),
    "-threads",
    String(threads),
    "-c:a",
    "aac",
    "-aac_coder",
    "fast",
    "-b:a",
    "96k",
    "-ar",
    "44100",
    ...(seconds === undefined ? [] : ["-t", seconds.toFixed(3)]),
    "-movflags",
    "+faststart",
  ];
}
