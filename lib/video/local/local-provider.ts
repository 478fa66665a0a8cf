import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { getMediaStorage } from "@/lib/media/storage";
import {
  type ProviderHealth,
  type RenderRequest,
  type RenderResult,
  UnrenderableError,
  type VideoProvider,
  videoMediaPrefix,
} from "../provider";
import { encodeSettings, FPS, renderThreads } from "./encode-settings";
import { findEspeak, findFfmpeg } from "./find-binary";
import { fitSceneText, frameLayout } from "./frame-layout";
import { runProcess } from "./run-process";
import { planStills, stillInputs } from "./scene-stills";
import { splitIntoScenes } from "./scenes";
import { buildAudioTrack, type Pcm, pcmSeconds, speak } from "./speech";

// Every ffmpeg call: no stdin, errors only, overwrite the (temporary) output.
const QUIET_OVERWRITE = ["-nostdin", "-hide_banner", "-v", "error", "-y"];

/**
 * Each scene is drawn once, so a render costs about what a plain encode of the same length does; the
 * estimate stays on the safe side for a busy machine.
 */
const RENDER_SECONDS_PER_VIDEO_SECOND = 0.3;
const RENDER_OVERHEAD_SECONDS = 2;

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

/** Runs `work` over `items` with at most `limit` at a time, keeping the results in order. */
async function mapLimited<T, R>(items: T[], limit: number, work: (item: T, index: number) => Promise<R>) {
  const results: R[] = new Array(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index], index);
    }
  });
  await Promise.all(lanes);
  return results;
}

/**
 * Scenes with their timing: spoken length when espeak-ng is there, reading time otherwise. The scenes
 * are spoken in parallel (one espeak-ng per core), each into its own file.
 */
async function planScenes(options: {
  request: RenderRequest;
  texts: string[];
  lines: string[][];
  dir: string;
  pace: Pace;
  espeak: string | null;
  signal: AbortSignal;
  onProgress: (percent: number) => void;
}): Promise<{ scenes: Scene[]; total: number }> {
  const { request, texts, lines, dir, pace, espeak, signal, onProgress } = options;
  let spokenCount = 0;
  const speeches = await mapLimited(texts, renderThreads(), async (text, index) => {
    if (!espeak) return null;
    const textFile = path.join(dir, `say-${index}.txt`);
    await fs.promises.writeFile(textFile, text);
    const speech = await speak({
      espeak,
      textFile,
      wavFile: path.join(dir, `say-${index}.wav`),
      language: request.brand.language,
      wordsPerMinute: pace.wordsPerMinute,
      signal,
    });
    spokenCount += 1;
    onProgress((spokenCount / texts.length) * 10);
    return speech;
  });
  const scenes: Scene[] = [];
  let start = 0;
  for (const [index, text] of texts.entries()) {
    const speech = speeches[index];
    const spoken = speech ? pcmSeconds(speech) : null;
    const length =
      spoken === null
        ? readingSeconds(text, pace)
        : Math.max(pace.minSceneSeconds, spoken + pace.pauseSeconds);
    scenes.push({ text, lines: lines[index], start, seconds: length, speech });
    start += length;
  }
  onProgress(10);
  return { scenes, total: start };
}

/** The frame a moment falls in, at `FPS`: scene `i` holds frames from frameAt(start) up to frameAt(end). */
const frameAt = (time: number) => Math.ceil(time * FPS - 1e-6);

/** Copies the brand's avatar from media storage into the render's folder; ffmpeg needs a file. */
async function fetchAvatar(key: string | null, dir: string) {
  const storage = getMediaStorage();
  if (!key || !(await storage.stat(key))) {
    throw new UnrenderableError(
      "brand_not_ready",
      "The brand's avatar image is missing. Upload the avatar again, or make a regular video.",
    );
  }
  const file = path.join(dir, "avatar.png");
  await pipeline(await storage.read(key), fs.createWriteStream(file));
  return file;
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
    const pace = paceFromBrief(request.brief);
    const texts = splitIntoScenes(request.script);
    if (texts.length === 0)
      throw new UnrenderableError("invalid_request", "The script has no words to show.");
    const withAvatar = request.mode === "avatar";
    const avatarFile = withAvatar ? await fetchAvatar(request.brand.avatarFramesKey, dir) : null;
    const layout = frameLayout(request.aspectRatio ?? "16:9", withAvatar);
    const text = fitSceneText(texts, layout.text);
    const primary = /^#[0-9a-f]{6}$/i.test(request.brand.primaryColor)
      ? request.brand.primaryColor
      : "#1F2937";
    const espeak = findEspeak();
    const videoFile = path.join(dir, "video.mp4");
    const posterFile = path.join(dir, "poster.jpg");
    const voiceFile = path.join(dir, "voice.wav");

    // The voice sets the scenes' lengths, and the filter graph needs them; everything else does not. So
    // ffmpeg starts at once and reads the graph from a pipe when the voice is ready (starting ffmpeg
    // costs about as much as speaking all the scenes). ffmpeg reads that graph, a global option, before
    // it opens its inputs, so voice.wav is written by the time it is opened.
    let total = 0;
    const planned = (async () => {
      const plan = await planScenes({
        request,
        texts,
        lines: text.lines,
        dir,
        pace,
        espeak,
        signal,
        onProgress,
      });
      total = plan.total;
      const { scenes } = plan;
      const firstSpeech = scenes.find((scene) => scene.speech)?.speech;
      if (firstSpeech) {
        const track = buildAudioTrack(
          firstSpeech,
          scenes.map((scene) => ({ clip: scene.speech, seconds: scene.seconds })),
        );
        await fs.promises.writeFile(voiceFile, track);
      }
      const stills = await planStills({
        dir,
        brandName: request.brand.name,
        layout,
        text,
        textColor: textColorOn(primary),
        accentColor: hexColor(request.brand.secondaryColor, "0xF59E0B"),
        avatarFile,
        frames: scenes.map((scene) => frameAt(scene.start + scene.seconds) - frameAt(scene.start)),
        fps: FPS,
      });
      // Without a voice, silence as long as the scenes (the voice's track is that long already).
      const graph = espeak
        ? stills
        : `${stills};\nanullsrc=r=44100:cl=mono,atrim=end=${total.toFixed(3)}[audio]`;
      return { scenes, graph };
    })();

    const inputs = stillInputs({ layout, background: hexColor(primary, "0x1F2937"), avatarFile, fps: FPS });
    const encoding = runProcess(
      ffmpeg,
      [
        ...QUIET_OVERWRITE,
        ...inputs,
        ...(espeak ? ["-i", voiceFile] : []),
        "-filter_complex_script",
        "pipe:3",
        "-map",
        "[video]",
        "-map",
        espeak ? `${inputs.filter((arg) => arg === "-i").length}:a` : "[audio]",
        // The graph's video and the voice both end where the scenes do: no cut needed.
        ...encodeSettings({ threads: renderThreads() }),
        "-progress",
        "pipe:1",
        "-nostats",
        videoFile,
        "-map",
        "[poster]",
        "-frames:v",
        "1",
        "-q:v",
        "3",
        "-update",
        "1",
        posterFile,
      ],
      {
        signal,
        pipe3: planned.then(({ graph }) => graph),
        onStdoutLine: (line) => {
          const done = progressSeconds(line);
          if (done !== null && total > 0) onProgress(10 + Math.min(1, done / total) * 85);
        },
      },
    );
    const [{ scenes }] = await Promise.all([planned, encoding]);
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
