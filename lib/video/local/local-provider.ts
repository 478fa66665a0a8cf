import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { getMediaStorage, MediaNotFoundError } from "@/lib/media/storage";
import {
  type ProviderHealth,
  type RenderRequest,
  type RenderResult,
  UnrenderableError,
  type VideoProvider,
  videoMediaPrefix,
} from "../provider";
import { dejaVuFont, findEspeak, findFfmpeg } from "./find-binary";
import { runProcess } from "./run-process";
import { splitIntoScenes, wrapLines } from "./scenes";
import { buildAudioTrack, type Pcm, pcmSeconds, speak } from "./speech";

// Every ffmpeg call: no stdin, errors only, overwrite the (temporary) output.
const QUIET_OVERWRITE = ["-nostdin", "-hide_banner", "-v", "error", "-y"];

const WIDTH = 1280;
const HEIGHT = 720;
const FPS = 25;
const AVATAR_SIZE = 440;
const AVATAR_MARGIN = 70;
/** Rendering runs about 3× faster than real time on one core; this keeps estimates on the safe side. */
const RENDER_SECONDS_PER_VIDEO_SECOND = 0.45;
const RENDER_OVERHEAD_SECONDS = 3;

type Pace = { wordsPerMinute: number; pauseSeconds: number; minSceneSeconds: number };

/** The local renderer reads the pace from the brief; a hosted provider would pass the brief on. */
export function paceFromBrief(brief: string | null): Pace {
  if (brief && /\b(short|quick|fast|snappy|punchy|energetic)\b/i.test(brief)) {
    return { wordsPerMinute: 200, pauseSeconds: 0.3, minSceneSeconds: 2 };
  }
  if (brief && /\b(slow|calm|relaxed|gentle|soothing)\b/i.test(brief)) {
    return { wordsPerMinute: 150, pauseSeconds: 1, minSceneSeconds: 3 };
  }
  return { wordsPerMinute: 175, pauseSeconds: 0.6, minSceneSeconds: 2.5 };
}

const wordCount = (text: string) => text.split(/\s+/).filter(Boolean).length;
const readingSeconds = (text: string, pace: Pace) =>
  Math.max(pace.minSceneSeconds, (wordCount(text) * 60) / pace.wordsPerMinute + pace.pauseSeconds);

export type Scene = { text: string; lines: string[]; start: number; seconds: number; speech: Pcm | null };

function hexColor(value: string, fallback: string) {
  return /^#[0-9a-f]{6}$/i.test(value) ? `0x${value.slice(1)}` : fallback;
}

/** White text on a dark brand colour, near-black on a light one. */
function textColorOn(background: string) {
  const [r, g, b] = [1, 3, 5].map((i) => Number.parseInt(background.slice(i, i + 2), 16) / 255);
  const luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  return luminance > 0.55 ? "0x111111" : "0xFFFFFF";
}

/** Quotes a filter option value: inside '…' everything is literal except the quote itself. */
const quote = (value: string) => `'${value.replace(/'/g, "'\\''")}'`;
const seconds = (value: number) => value.toFixed(3);

function filterGraph(options: {
  scenes: Scene[];
  dir: string;
  textColor: string;
  accentColor: string;
  withAvatar: boolean;
}) {
  const { scenes, dir, textColor, accentColor, withAvatar } = options;
  const regular = quote(dejaVuFont("regular"));
  const bold = quote(dejaVuFont("bold"));
  const textAreaWidth = withAvatar ? WIDTH - AVATAR_SIZE - AVATAR_MARGIN : WIDTH;
  const fontSize = withAvatar ? 46 : 54;
  const chain = [
    `drawbox=x=0:y=ih-14:w=iw:h=14:color=${accentColor}:t=fill`,
    `drawtext=fontfile=${bold}:textfile=${quote(path.join(dir, "brand.txt"))}:expansion=none:fontsize=34:fontcolor=${accentColor}:x=64:y=52`,
    ...scenes.map(
      (scene, index) =>
        `drawtext=fontfile=${regular}:textfile=${quote(path.join(dir, `scene-${index}.txt`))}:expansion=none` +
        `:fontsize=${fontSize}:line_spacing=18:fontcolor=${textColor}` +
        `:x=(${textAreaWidth}-text_w)/2:y=(h-text_h)/2` +
        `:enable='between(t,${seconds(scene.start)},${seconds(scene.start + scene.seconds)})'` +
        `:alpha='min(1,(t-${seconds(scene.start)})/0.4)'`,
    ),
  ];
  if (!withAvatar) return `[0:v]${chain.join(",")}[v]`;
  // The avatar sways gently, so the frame reads as a presenter rather than a still.
  return (
    `[0:v]${chain.join(",")}[bg];` +
    `[2:v]scale=${AVATAR_SIZE}:${AVATAR_SIZE}[avatar];` +
    `[bg][avatar]overlay=x=W-w-${AVATAR_MARGIN}:y=(H-h)/2+10*sin(2*PI*t/3):eval=frame[v]`
  );
}

/** ffmpeg's `-progress` output: `out_time_us=…` lines, in microseconds of video written. */
function progressSeconds(line: string): number | null {
  const match = line.match(/^out_time_(?:us|ms)=(\d+)$/);
  return match ? Number(match[1]) / 1_000_000 : null;
}

let healthCache: { at: number; health: ProviderHealth } | undefined;

async function checkHealth(): Promise<ProviderHealth> {
  if (healthCache && Date.now() - healthCache.at < (healthCache.health.ok ? 60_000 : 5_000)) {
    return healthCache.health;
  }
  const ffmpeg = await findFfmpeg();
  let health: ProviderHealth;
  if (!ffmpeg) {
    health = { ok: false, reason: "ffmpeg is not installed (or FFMPEG_PATH points at nothing)." };
  } else {
    health = await runProcess(ffmpeg, ["-hide_banner", "-version"]).then(
      () => ({ ok: true }) as const,
      (error: Error) => ({ ok: false, reason: `ffmpeg does not run: ${error.message}` }) as const,
    );
  }
  healthCache = { at: Date.now(), health };
  return health;
}

/** Scenes with their timing: spoken length when espeak-ng is there, reading time otherwise. */
async function planScenes(options: {
  request: RenderRequest;
  dir: string;
  pace: Pace;
  signal: AbortSignal;
  onProgress: (percent: number) => void;
}): Promise<{ scenes: Scene[]; total: number }> {
  const { request, dir, pace, signal, onProgress } = options;
  const espeak = findEspeak();
  const texts = splitIntoScenes(request.script);
  const lineChars = request.mode === "avatar" ? 24 : 32;
  const scenes: Scene[] = [];
  let start = 0;
  for (const [index, text] of texts.entries()) {
    const lines = wrapLines(text, lineChars);
    await fs.promises.writeFile(path.join(dir, `scene-${index}.txt`), lines.join("\n"));
    let speech: Pcm | null = null;
    if (espeak) {
      const textFile = path.join(dir, `say-${index}.txt`);
      await fs.promises.writeFile(textFile, text);
      speech = await speak({
        espeak,
        textFile,
        wavFile: path.join(dir, `say-${index}.wav`),
        language: request.brand.language,
        wordsPerMinute: pace.wordsPerMinute,
        signal,
      });
    }
    const spoken = speech ? pcmSeconds(speech) : null;
    const length =
      spoken === null
        ? readingSeconds(text, pace)
        : Math.max(pace.minSceneSeconds, spoken + pace.pauseSeconds);
    scenes.push({ text, lines, start, seconds: length, speech });
    start += length;
    onProgress(((index + 1) / texts.length) * 10);
  }
  return { scenes, total: start };
}

async function render(
  request: RenderRequest,
  { signal, onProgress }: { signal: AbortSignal; onProgress: (percent: number) => void },
): Promise<RenderResult & { scenes: Scene[] }> {
  const ffmpeg = await findFfmpeg();
  if (!ffmpeg) throw new Error("ffmpeg is not installed.");
  const storage = getMediaStorage();
  // The job id in the folder name marks the ffmpeg process as this job's (tests look for it).
  const dir = await fs.promises.mkdtemp(
    path.join(os.tmpdir(), `brand-studio-${request.jobId}-a${request.attempt}-`),
  );
  try {
    await fs.promises.writeFile(path.join(dir, "brand.txt"), request.brand.name);
    const pace = paceFromBrief(request.brief);
    const { scenes, total } = await planScenes({ request, dir, pace, signal, onProgress });
    if (scenes.length === 0)
      throw new UnrenderableError("invalid_request", "The script has no words to show.");

    const inputs = [
      "-f",
      "lavfi",
      "-i",
      `color=c=${hexColor(request.brand.primaryColor, "0x1F2937")}:s=${WIDTH}x${HEIGHT}:r=${FPS}:d=${seconds(total)}`,
    ];
    const firstSpeech = scenes.find((scene) => scene.speech)?.speech;
    if (firstSpeech) {
      const track = buildAudioTrack(
        firstSpeech,
        scenes.map((scene) => ({ clip: scene.speech, seconds: scene.seconds })),
      );
      await fs.promises.writeFile(path.join(dir, "voice.wav"), track);
      inputs.push("-i", path.join(dir, "voice.wav"));
    } else {
      inputs.push("-f", "lavfi", "-i", "anullsrc=r=44100:cl=mono");
    }
    const withAvatar = request.mode === "avatar";
    if (withAvatar) {
      const key = request.brand.avatarFramesKey;
      // ffmpeg reads a file: copy the frame out of media storage into the render folder.
      const avatarPath = path.join(dir, "avatar.png");
      const copied = key
        ? await storage
            .read(key)
            .then((frame) => pipeline(frame, fs.createWriteStream(avatarPath)))
            .then(() => true)
            .catch((error: unknown) => {
              if (error instanceof MediaNotFoundError) return false;
              throw error;
            })
        : false;
      if (!copied) {
        throw new UnrenderableError(
          "brand_not_ready",
          "The brand's avatar image is missing. Upload the avatar again, or make a regular video.",
        );
      }
      inputs.push("-loop", "1", "-framerate", String(FPS), "-t", seconds(total), "-i", avatarPath);
    }
    const primary = /^#[0-9a-f]{6}$/i.test(request.brand.primaryColor)
      ? request.brand.primaryColor
      : "#1F2937";
    const graphFile = path.join(dir, "graph.txt");
    await fs.promises.writeFile(
      graphFile,
      filterGraph({
        scenes,
        dir,
        textColor: textColorOn(primary),
        accentColor: hexColor(request.brand.secondaryColor, "0xF59E0B"),
        withAvatar,
      }),
    );

    const videoFile = path.join(dir, "video.mp4");
    await runProcess(
      ffmpeg,
      [
        ...QUIET_OVERWRITE,
        ...inputs,
        "-filter_complex_script",
        graphFile,
        "-map",
        "[v]",
        "-map",
        "1:a",
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
        "-c:a",
        "aac",
        "-b:a",
        "96k",
        "-ar",
        "44100",
        "-t",
        seconds(total),
        "-movflags",
        "+faststart",
        "-progress",
        "pipe:1",
        "-nostats",
        videoFile,
      ],
      {
        signal,
        onStdoutLine: (line) => {
          const done = progressSeconds(line);
          if (done !== null) onProgress(10 + Math.min(1, done / total) * 82);
        },
      },
    );

    const posterFile = path.join(dir, "poster.jpg");
    const posterAt = Math.min(scenes[0].seconds * 0.6, total / 2);
    await runProcess(
      ffmpeg,
      [
        ...QUIET_OVERWRITE,
        "-ss",
        seconds(posterAt),
        "-i",
        videoFile,
        "-frames:v",
        "1",
        "-q:v",
        "3",
        posterFile,
      ],
      { signal },
    );
    onProgress(95);

    const videoKey = `${videoMediaPrefix(request.jobId)}/video.mp4`;
    const posterKey = `${videoMediaPrefix(request.jobId)}/poster.jpg`;
    await storage.put(videoKey, videoFile);
    await storage.put(posterKey, posterFile);
    onProgress(99);
    return { videoKey, posterKey, durationSeconds: total, scenes };
  } finally {
    await fs.promises.rm(dir, { recursive: true, force: true });
  }
}

/** The built-in renderer: a real H.264/AAC MP4 made with ffmpeg, no account needed. */
export const localVideoProvider = {
  name: "local",
  checkHealth,
  estimateSeconds({ script, brief }) {
    const pace = paceFromBrief(brief);
    const videoSeconds = splitIntoScenes(script).reduce((sum, text) => sum + readingSeconds(text, pace), 0);
    return Math.ceil(videoSeconds * RENDER_SECONDS_PER_VIDEO_SECOND + RENDER_OVERHEAD_SECONDS);
  },
  render,
} satisfies VideoProvider;
