import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { type EspeakProgram, findEspeak, findFfmpeg } from "@/lib/ffmpeg/find-binary";
import { runProcess } from "@/lib/ffmpeg/run-process";
import { log } from "@/lib/log";
import { getMediaStorage } from "@/lib/media/storage";
import { inSpan } from "@/lib/telemetry/tracing";
import {
  type ProviderHealth,
  type RenderRequest,
  type RenderResult,
  UnrenderableError,
  type VideoProvider,
  videoMediaPrefix,
} from "../provider";
import { renderBranded } from "./branded-render";
import { FPS, onRenderProgress, renderThreads, videoAndPosterOutputs } from "./encode-settings";
import { fileDurationSeconds } from "./file-duration";
import { fitSceneText, frameLayout } from "./frame-layout";
import { mapLimited } from "./map-limited";
import { type Pace, paceFromBrief, readingSeconds } from "./pace";
import { planStills, stillInputs } from "./scene-stills";
import { splitIntoScenes } from "./scenes";
import { buildAudioTrack, type Pcm, pcmSeconds, speak } from "./speech";
import { espeakVoice } from "./speech-engines";

export { paceFromBrief };

// Every ffmpeg call: no stdin, errors only, overwrite the (temporary) output.
const QUIET_OVERWRITE = ["-nostdin", "-hide_banner", "-v", "error", "-y"];

/**
 * Each scene is drawn once, so a render costs about what a plain encode of the same length does; the
 * estimate stays on the safe side for a busy machine.
 */
const RENDER_SECONDS_PER_VIDEO_SECOND = 0.3;
const RENDER_OVERHEAD_SECONDS = 2;

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
  espeak: EspeakProgram | null;
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
      voice: espeakVoice(request.brand.language) ?? "en",
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
): Promise<RenderResult & { scenes: Scene[] } & Partial<Awaited<ReturnType<typeof renderBranded>>>> {
  const ffmpeg = await findFfmpeg();
  if (!ffmpeg) throw new Error("ffmpeg is not installed.");
  const storage = getMediaStorage();
  // The job id in the folder name marks the ffmpeg process as this job's (tests look for it).
  const dir = await fs.promises.mkdtemp(
    path.join(os.tmpdir(), `brand-studio-${request.jobId}-a${request.attempt}-`),
  );
  try {
    // Regular videos get the branded render (images, captions, logo, music); avatar videos keep the
    // text-and-avatar stills below.
    if (request.mode !== "avatar") return await renderBranded(request, dir, ffmpeg, { signal, onProgress });
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
      const plan = await inSpan(
        "render speech",
        { attributes: { "brand_studio.scenes": texts.length } },
        () => planScenes({ request, texts, lines: text.lines, dir, pace, espeak, signal, onProgress }),
      );
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
      const stills = await inSpan("render scenes", {}, () =>
        planStills({
          dir,
          brandName: request.brand.name,
          layout,
          text,
          textColor: textColorOn(primary),
          accentColor: hexColor(request.brand.secondaryColor, "0xF59E0B"),
          avatarFile,
          frames: scenes.map((scene) => frameAt(scene.start + scene.seconds) - frameAt(scene.start)),
          fps: FPS,
        }),
      );
      // Without a voice, silence as long as the scenes (the voice's track is that long already).
      const graph = espeak
        ? stills
        : `${stills};\nanullsrc=r=44100:cl=mono,atrim=end=${total.toFixed(3)}[audio]`;
      return { scenes, graph };
    })();

    const inputs = stillInputs({ layout, background: hexColor(primary, "0x1F2937"), avatarFile, fps: FPS });
    const encoding = inSpan("render encode", {}, () =>
      runProcess(
        ffmpeg,
        [
          ...QUIET_OVERWRITE,
          ...inputs,
          ...(espeak ? ["-i", voiceFile] : []),
          "-filter_complex_script",
          "pipe:3",
          ...videoAndPosterOutputs({
            audio: espeak ? `${inputs.filter((arg) => arg === "-i").length}:a` : "[audio]",
            videoFile,
            posterFile,
          }),
        ],
        {
          signal,
          pipe3: planned.then(({ graph }) => graph),
          onStdoutLine: onRenderProgress(total, onProgress),
        },
      ),
    );
    const [{ scenes }] = await Promise.all([planned, encoding]);
    onProgress(95);

    const videoKey = `${videoMediaPrefix(request.jobId)}/video.mp4`;
    const posterKey = `${videoMediaPrefix(request.jobId)}/poster.jpg`;
    await inSpan("render upload", { attributes: { "brand_studio.files": 2 } }, async () => {
      await storage.put(videoKey, videoFile);
      await storage.put(posterKey, posterFile);
    });
    onProgress(99);
    // The file's own length, what a player shows (the plan's total can differ by a frame or an audio packet).
    return { videoKey, posterKey, durationSeconds: (await fileDurationSeconds(videoFile)) ?? total, scenes };
  } finally {
    // A canceled render's speech or image steps may still be writing here for a moment after ffmpeg is
    // killed: retry the removal, and never let a cleanup error hide why the render ended.
    await fs.promises
      .rm(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 })
      .catch((error) => log.warn("render_cleanup_failed", { jobId: request.jobId, dir, error }));
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
