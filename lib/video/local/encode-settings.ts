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
 * `graphics`: the picture is flat colour, gradients and text, no photographs (the render without
 * images). Still-image tuning's strong adaptive quantisation (1.2) is for photographs; on such frames it
 * keeps re-coding the text's edges over the gradient in every following frame. At 0.5, measured on the
 * bench's 31 s render: ffmpeg's CPU −8 %, the video 28 % smaller, PSNR against a lossless encode 53.2 dB
 * instead of 50.6, SSIM the same (0.998). On moving photographs it costs quality (SSIM 0.972 → 0.962),
 * so they keep 1.2.
 *
 * The AAC coder is named, not left to the build: ffmpeg's "fast" coder, the default of the static
 * ffmpeg the renderer bundles, where newer builds default to "twoloop", which costs about three times
 * the CPU (for speech, a fifth of what the H.264 costs) and does not sound better for a synthetic voice at 96k.
 */
export function encodeSettings({
  seconds,
  threads,
  graphics = false,
}: {
  seconds?: number;
  threads: number;
  graphics?: boolean;
}) {
  return [
    "-c:v",
    "libx264",
    "-preset",
    "veryfast",
    "-tune",
    "stillimage",
    ...(graphics ? ["-aq-strength", "0.5"] : []),
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

/**
 * What both local renders write from one ffmpeg: the graph's `[video]` with `audio` into the MP4, its
 * `[poster]` into a JPEG, and `-progress` lines on stdout, which `onRenderProgress` turns into percent.
 */
export function videoAndPosterOutputs(options: {
  audio: string;
  videoFile: string;
  posterFile: string;
  graphics?: boolean;
}) {
  return [
    "-map",
    "[video]",
    "-map",
    options.audio,
    // The graph's video and the voice both end where the last scene does: no cut needed.
    ...encodeSettings({ threads: renderThreads(), graphics: options.graphics }),
    "-progress",
    "pipe:1",
    "-nostats",
    options.videoFile,
    "-map",
    "[poster]",
    "-frames:v",
    "1",
    "-q:v",
    "3",
    "-update",
    "1",
    options.posterFile,
  ];
}

/** Reports ffmpeg's `-progress` (out_time_us=…, microseconds of video written) as 10–95 % of a render. */
export function onRenderProgress(total: number, onProgress: (percent: number) => void) {
  return (line: string) => {
    const match = line.match(/^out_time_(?:us|ms)=(\d+)$/);
    if (match && total > 0) onProgress(10 + Math.min(1, Number(match[1]) / 1_000_000 / total) * 85);
  };
}
