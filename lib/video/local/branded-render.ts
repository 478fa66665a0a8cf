import "server-only";
import fs from "node:fs";
import path from "node:path";
import { buffer as readAll } from "node:stream/consumers";
import sharp from "sharp";
import { isHexColor, readableTextOn } from "@/lib/ffmpeg/contrast";
import { runProcess } from "@/lib/ffmpeg/run-process";
import { brandFontFamily, brandFontFile } from "@/lib/media/brand-fonts";
import { getMediaStorage } from "@/lib/media/storage";
import { inSpan } from "@/lib/telemetry/tracing";
import { type RenderRequest, UnrenderableError, videoMediaPrefix } from "../provider";
import { type BackgroundScene, type Pan, videoGraph } from "./branded-graph";
import {
  type CaptionCue,
  captionLayout,
  captionPhrases,
  SENTENCE_END,
  toWebVtt,
  wrapCaption,
} from "./caption-layout";
import { FPS, onRenderProgress, renderThreads, videoAndPosterOutputs } from "./encode-settings";
import { fileDurationSeconds } from "./file-duration";
import { frameSize } from "./frame-layout";
import { mapLimited } from "./map-limited";
import { audioGraph } from "./music-bed";
import { paceFromBrief, readingSeconds } from "./pace";
import { safeArea } from "./safe-areas";
import { drawGradient, prepareSceneImages } from "./scene-images";
import { wrapLines } from "./scenes";
import { buildAudioTrack, type Pcm, pcmSeconds } from "./speech";
import { espeakVoice, type SpeechEngine, speechEngines } from "./speech-engines";

const QUIET_OVERWRITE = ["-nostdin", "-hide_banner", "-v", "error", "-y"];
/** How long the end card holds (the pause after each phrase is the brief's pace). */
export const END_CARD_SECONDS = 2.5;
/** Without images, one gradient scene per this many seconds (held, not panned: gradients look still). */
const GRADIENT_SCENE_SECONDS = 6;
const MID_SENTENCE_PAUSE = 0.15;
const PANS: Pan[] = ["right", "down", "left", "up"];

export type BrandedScene = {
  text: string;
  lines: string[];
  start: number;
  seconds: number;
  speech: Pcm | null;
};

/**
 * Speaks every phrase with the first engine that manages all of them; an engine that fails is noted
 * and the next one tried. Null speeches (with a warning) when no engine can speak.
 */
async function speakPhrases(options: {
  phrases: string[];
  engines: SpeechEngine[];
  dir: string;
  signal: AbortSignal;
  onSpoken: (count: number) => void;
}): Promise<{
  speeches: (Pcm | null)[];
  warnings: string[];
  engine: string | null;
  /** The engine and its voice (`espeak-ng:es`), null without a voice. */
  voice: string | null;
}> {
  const { phrases, engines, dir, signal, onSpoken } = options;
  const failures: string[] = [];
  for (const engine of engines) {
    let spoken = 0;
    try {
      // espeak-ng's process mostly starts up (loads its voice) and waits on files: two per core keep the
      // cores busy and shorten the wait before the encode can start (ffmpeg needs every phrase's length
      // first; measured on the loaded 2-core machine, 14 phrases: 4.2 s with 2 lanes, 3.3 s with 4). The
      // WebAssembly engine is a Node process that compiles eSpeak each time: one per core. OpenAI's calls
      // wait on the network. Both eSpeak engines run their lanes from one shell (sayAll): each spawn from
      // this large process blocks its JS thread for milliseconds (on the loaded machine, profiled, most of
      // the render's own CPU time), the small shell's forks do not.
      const lanes =
        engine.name === "openai"
          ? 4
          : engine.name === "espeak-ng"
            ? Math.max(4, renderThreads() * 2)
            : renderThreads();
      const items = phrases.map((text, index) => ({ text, wavFile: path.join(dir, `say-${index}.wav`) }));
      let speeches: Pcm[];
      if (engine.sayAll) {
        speeches = await engine.sayAll(items, { lanes, signal, onSpoken: () => onSpoken(++spoken) });
      } else {
        speeches = await mapLimited(items, lanes, async ({ text, wavFile }) => {
          const pcm = await engine.say(text, wavFile, signal);
          onSpoken(++spoken);
          return pcm;
        });
      }
      return { speeches, warnings: [], engine: engine.name, voice: `${engine.name}:${engine.voice}` };
    } catch (error) {
      if (signal.aborted) throw error;
      failures.push(`${engine.name}: ${(error as Error).message}`);
    }
  }
  const why = engines.length
    ? `no speech engine could speak (${failures.join("; ")})`
    : "no speech engine is available on the server (install espeak-ng, or set OPENAI_API_KEY; TTS_ENGINES may turn them off)";
  return {
    speeches: phrases.map(() => null),
    warnings: [`The video has no voice: ${why}.`],
    engine: null,
    voice: null,
  };
}

/** The logo fitted inside a box, as the PNG the graph overlays (the preview frame uses it too). */
export async function fitLogo(bytes: Buffer, file: string, maxWidth: number, maxHeight: number) {
  const { data, info } = await sharp(bytes)
    .resize(maxWidth, maxHeight, { fit: "inside" })
    .png()
    .toBuffer({ resolveWithObject: true });
  await fs.promises.writeFile(file, data);
  return { width: info.width, height: info.height };
}

/** The corner logo's height and the end card's, from the frame's short side. */
export const logoSizes = (width: number, height: number) => ({
  logoSize: Math.round(Math.min(width, height) * 0.1),
  endLogoSize: Math.round(Math.min(width, height) * 0.28),
});

/** The media plan's overlay text (and the call to action): a little larger than captions. */
export function overlayLayout(layout: { fontSize: number; lineChars: number }) {
  const overlayFont = Math.round(layout.fontSize * 1.1);
  return {
    overlayFont,
    overlayPadding: Math.round(overlayFont * 0.3),
    overlayChars: Math.floor((layout.lineChars * layout.fontSize) / overlayFont),
  };
}

/**
 * The local renderer's regular video: the post's images (or brand gradients) in motion, captions synced
 * to the speech, the logo, a progress bar and an end card with the call to action, music under the
 * voice. One ffmpeg draws and encodes; its filter graph comes over fd 3 once the speech is known.
 */
export async function renderBranded(
  request: RenderRequest,
  dir: string,
  ffmpeg: string,
  { signal, onProgress }: { signal: AbortSignal; onProgress: (percent: number) => void },
) {
  const storage = getMediaStorage();
  const aspectRatio = request.aspectRatio ?? "16:9";
  const { width, height } = frameSize(aspectRatio);
  const font = request.brand.font ?? "sans";
  const fontFile = brandFontFile(font, "bold");
  const primary = isHexColor(request.brand.primaryColor) ? request.brand.primaryColor : "#1F2937";
  const secondary = isHexColor(request.brand.secondaryColor) ? request.brand.secondaryColor : "#F59E0B";
  const captionsOn = request.captions ?? true;
  const layout = captionLayout(aspectRatio, width, height, font);
  const language = request.brand.language;
  const phrases = captionPhrases(request.script, layout.lineChars, language);
  if (phrases.length === 0)
    throw new UnrenderableError("invalid_request", "The script has no words to show.");
  const pace = paceFromBrief(request.brief);
  const safe = safeArea(aspectRatio, width, height);
  const warnings: string[] = [];
  const file = (name: string) => path.join(dir, name);

  // Speech, images and the logo are independent; they run together.
  const speaking = inSpan(
    "render speech",
    { attributes: { "brand_studio.phrases": phrases.length } },
    async () => {
      const engines = speechEngines({
        language: request.brand.language,
        wordsPerMinute: pace.wordsPerMinute,
        voice: request.brand.ttsVoice ?? null,
      });
      return speakPhrases({
        phrases,
        engines,
        dir,
        signal,
        onSpoken: (count) => onProgress((count / phrases.length) * 10),
      });
    },
  );
  const sources = request.visuals?.images ?? [];
  const imaging = prepareSceneImages({
    sources,
    width,
    height,
    fileFor: (index) => file(`image-${index}.jpg`),
    signal,
  });
  const { logoSize, endLogoSize } = logoSizes(width, height);
  const readLogos = async () => {
    if (!request.brand.logoKey) return { logo: null, endLogo: null };
    const bytes = await storage
      .read(request.brand.logoKey)
      .then(readAll)
      .catch(() => null);
    const fitted = bytes && {
      logo: await fitLogo(bytes, file("logo.png"), logoSize * 3, logoSize).catch(() => null),
      endLogo: await fitLogo(bytes, file("end-logo.png"), endLogoSize * 2, endLogoSize).catch(() => null),
    };
    if (fitted?.logo && fitted.endLogo) return fitted;
    warnings.push("The brand's logo could not be read; the video has none.");
    const blank = await sharp({ create: { width: 2, height: 2, channels: 4, background: "#0000" } })
      .png()
      .toBuffer();
    await Promise.all(["logo.png", "end-logo.png"].map((name) => fs.promises.writeFile(file(name), blank)));
    return { logo: null, endLogo: null };
  };
  const readMusic = async () => {
    if (!request.brand.musicKey) return false;
    try {
      await fs.promises.writeFile(file("music"), await readAll(await storage.read(request.brand.musicKey)));
      return true;
    } catch {
      warnings.push("The brand's music could not be read; the video has none.");
      const silence = { sampleRate: 22050, channels: 1, bitsPerSample: 16 };
      await fs.promises.writeFile(file("music"), buildAudioTrack(silence, [{ clip: null, seconds: 0.1 }]));
      return false;
    }
  };
  const gradient = (name: string, angle: number) =>
    drawGradient({ file: file(name), width, height, from: primary, to: secondary, angle }).then(() =>
      file(name),
    );
  // Without images, a few gradients take turns (held still; the timeline decides how many scenes).
  const gradientAngles = sources.length ? [] : [60, 130, 200];
  // "scenes": the pictures, logo, music and gradients, then the timeline and the filter graph.
  const preparing = inSpan("render scenes", { attributes: { "brand_studio.images": sources.length } }, () =>
    Promise.all([
      imaging,
      readLogos(),
      readMusic(),
      gradient("end.png", 120),
      Promise.all(gradientAngles.map((angle, index) => gradient(`gradient-${index}.png`, angle))),
    ]),
  );

  // Every input's file is named now, so ffmpeg starts at once, while the voice is spoken and the pictures
  // drawn; it reads its filter graph from fd 3, a global option, before it opens any input, and the graph
  // comes only once every file is written (a source that failed gets a placeholder the graph leaves unused).
  const inputs: string[] = [];
  let inputCount = 0;
  const addInput = (...args: string[]) => {
    inputs.push(...args);
    return inputCount++;
  };
  const sourceInputs = sources.map((_, index) => addInput("-i", file(`image-${index}.jpg`)));
  const gradientInputs = gradientAngles.map((_, index) => addInput("-i", file(`gradient-${index}.png`)));
  const endInput = addInput("-i", file("end.png"));
  const logoInput = request.brand.logoKey ? addInput("-i", file("logo.png")) : null;
  const endLogoInput = request.brand.logoKey ? addInput("-i", file("end-logo.png")) : null;
  const voiceFile = file("voice.wav");
  const voiceInput = addInput("-i", voiceFile);
  const musicInput = request.brand.musicKey
    ? addInput("-stream_loop", "-1", "-protocol_whitelist", "file", "-i", file("music"))
    : null;

  let total = 0;
  const planned = (async () => {
    const [
      [{ images, warnings: imageWarnings }, { logo, endLogo }, hasMusic, endFile],
      { speeches, warnings: speechWarnings, engine, voice },
    ] = await Promise.all([preparing, speaking]);
    warnings.push(...imageWarnings, ...speechWarnings);
    if (engine?.startsWith("espeak") && !espeakVoice(language))
      warnings.push(`eSpeak NG has no voice for "${language}": the video is spoken in English.`);
    const prepared = new Set(images.map((image) => image.index));
    await Promise.all(
      sources.map((_, index) =>
        prepared.has(index) ? null : fs.promises.copyFile(endFile, file(`image-${index}.jpg`)),
      ),
    );
    const pictures: { input: number; overlay: string | null; pan: Pan }[] = images.length
      ? images.map((image, order) => ({
          input: sourceInputs[image.index],
          overlay: image.overlayText,
          pan: PANS[order % PANS.length],
        }))
      : gradientInputs.length
        ? gradientInputs.map((input) => ({ input, overlay: null, pan: null }))
        : [{ input: endInput, overlay: null, pan: null }];
    // The timeline: each phrase for as long as it is spoken (its reading time without a voice), a pause.
    const cues: CaptionCue[] = [];
    const spoken: { start: number; end: number }[] = [];
    let cursor = 0;
    for (const [index, text] of phrases.entries()) {
      const speech = speeches[index];
      const talk = speech ? pcmSeconds(speech) : readingSeconds(text, pace) - pace.pauseSeconds;
      spoken.push({ start: cursor, end: cursor + talk });
      const lines = wrapCaption(text, layout.lineChars, language);
      // The brief's pause after a sentence; a phrase cut inside a sentence runs on after a breath.
      const pause = SENTENCE_END.test(text) ? pace.pauseSeconds : MID_SENTENCE_PAUSE;
      cues.push({ text, lines, start: cursor, end: cursor + talk + pause });
      cursor += talk + pause;
    }
    const endStart = Math.ceil(cursor * FPS) / FPS;
    total = endStart + END_CARD_SECONDS;
    // The voice track: the phrases in their slots, silence under the end card (all silence without a voice).
    const format = speeches.find(Boolean) ?? { sampleRate: 22050, channels: 1, bitsPerSample: 16 };
    const slots = speeches.map((clip, index) => ({ clip, seconds: cues[index].end - cues[index].start }));
    slots.push({ clip: null, seconds: total - cursor });
    await fs.promises.writeFile(voiceFile, buildAudioTrack(format, slots));

    const storyFrames = Math.round(endStart * FPS);
    const sceneCount = images.length || Math.max(1, Math.round(endStart / GRADIENT_SCENE_SECONDS));
    const { overlayFont, overlayPadding, overlayChars } = overlayLayout(layout);
    const backgrounds: BackgroundScene[] = Array.from({ length: sceneCount }, (_, index) => {
      const picture = pictures[index % pictures.length];
      const from = Math.round((storyFrames * index) / sceneCount);
      const to = Math.round((storyFrames * (index + 1)) / sceneCount);
      return {
        input: picture.input,
        frames: to - from,
        pan: picture.pan,
        overlayLines: picture.overlay ? wrapLines(picture.overlay, overlayChars).slice(0, 3) : [],
      };
    });
    const overlayTop = safe.y + (logo ? logo.height + Math.round(logoSize * 0.4) : 0);
    const cta = request.visuals?.callToAction?.trim();
    const endLogoTop = safe.y + Math.round((safe.height - endLogoSize) * 0.3);
    const graph = [
      await videoGraph(
        {
          width,
          height,
          fps: FPS,
          fontFile,
          fontFamily: brandFontFamily(font),
          language,
          scenes: backgrounds,
          endCard: {
            input: endInput,
            frames: Math.round(total * FPS) - storyFrames,
            start: endStart,
            lines: cta ? wrapLines(cta, overlayChars).slice(0, 3) : [],
            top: endLogoTop + endLogoSize + Math.round(overlayFont * 1.2),
          },
          cues,
          captions: captionsOn ? layout : null,
          captionBox: primary,
          captionText: readableTextOn(primary),
          accentBox: secondary,
          accentText: readableTextOn(secondary),
          overlay: {
            top: overlayTop,
            fontSize: overlayFont,
            lineHeight: Math.round(overlayFont * 1.2) + 2 * overlayPadding,
            padding: overlayPadding,
            center: { x: safe.x, width: safe.width },
          },
          logo: logo && logoInput !== null ? { input: logoInput, x: safe.x, y: safe.y } : null,
          endLogo:
            endLogo && endLogoInput !== null
              ? {
                  input: endLogoInput,
                  x: safe.x + Math.round((safe.width - endLogo.width) / 2),
                  y: endLogoTop,
                }
              : null,
          total,
          posterFrame: Math.min(Math.round(((spoken[0].start + spoken[0].end) / 2) * FPS), storyFrames - 1),
        },
        dir,
      ),
      audioGraph({ voiceInput, musicInput: hasMusic ? musicInput : null, total, spoken }),
    ].join(";\n");
    return { graph, cues, spoken, speeches, voice, logo };
  })();

  const videoFile = file("video.mp4");
  const posterFile = file("poster.jpg");
  const encoding = inSpan("render encode", { attributes: { "brand_studio.aspect_ratio": aspectRatio } }, () =>
    runProcess(
      ffmpeg,
      [
        ...QUIET_OVERWRITE,
        ...inputs,
        "-filter_complex_script",
        "pipe:3",
        // Without the post's images the picture is gradients and text (if every image fails to load,
        // it is too, encoded as photographs would be: a little larger, no worse).
        ...videoAndPosterOutputs({ audio: "[audio]", videoFile, posterFile, graphics: sources.length === 0 }),
      ],
      {
        signal,
        pipe3: planned.then(({ graph }) => graph),
        onStdoutLine: onRenderProgress(total, onProgress),
      },
    ),
  );
  const [{ cues, spoken, speeches, voice, logo }] = await Promise.all([planned, encoding]);
  onProgress(95);

  const prefix = videoMediaPrefix(request.jobId);
  const captionsKey = `${prefix}/captions.vtt`;
  await inSpan("render upload", { attributes: { "brand_studio.files": 3 } }, () =>
    Promise.all([
      storage.put(`${prefix}/video.mp4`, videoFile),
      storage.put(`${prefix}/poster.jpg`, posterFile),
      storage.put(captionsKey, Buffer.from(toWebVtt(cues, request.brand.language))),
    ]),
  );
  onProgress(99);
  const scenes: BrandedScene[] = cues.map((cue, index) => ({
    text: cue.text,
    lines: cue.lines,
    start: cue.start,
    seconds: cue.end - cue.start,
    speech: speeches[index],
  }));
  return {
    videoKey: `${prefix}/video.mp4`,
    posterKey: `${prefix}/poster.jpg`,
    captionsKey,
    // The file's own length, what a player shows (the plan's total can differ by a frame or an audio packet).
    durationSeconds: (await fileDurationSeconds(videoFile)) ?? total,
    warnings,
    scenes,
    cues,
    spoken,
    voice,
    layout: { captions: layout, safe, logo: logo ? { x: safe.x, y: safe.y, ...logo } : null },
  };
}
