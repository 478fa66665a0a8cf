import fs from "node:fs";
import path from "node:path";
import { linkCaptionFonts, scriptFontFor } from "./caption-fonts";
import { type CaptionCue, type CaptionLayout, toAss } from "./caption-layout";
import { quote } from "./quote";

const ffColor = (hex: string) => `0x${hex.slice(1)}`;

export type Pan = "right" | "left" | "down" | "up" | null;

/** One background scene: a prepared image (panned) or a frame-sized gradient (held). */
export type BackgroundScene = { input: number; frames: number; pan: Pan; overlayLines: string[] };

export type Placed = { input: number; x: number; y: number };

/** Boxed lines of text (captions, overlay text, the call to action) drawn while `enable` holds. */
type TextBlock = {
  lines: string[];
  /** The top of the first line's box. */
  top: number;
  center: { x: number; width: number };
  fontSize: number;
  lineHeight: number;
  padding: number;
  textColor: string;
  boxColor: string;
  /** When the block shows (an ffmpeg expression); empty for always. */
  enable: string;
};

/**
 * The pan of a scene: the crop window slides across the enlarged image over the scene's frames (a crop
 * per frame of a picture converted once, far cheaper than zoompan's per-frame scaling).
 */
function panCrop(pan: Pan, frames: number, width: number, height: number) {
  const progress = `n/${Math.max(1, frames - 1)}`;
  const centreX = "(iw-ow)/2";
  const centreY = "(ih-oh)/2";
  const [x, y] =
    pan === "right"
      ? [`(iw-ow)*${progress}`, centreY]
      : pan === "left"
        ? [`(iw-ow)*(1-${progress})`, centreY]
        : pan === "down"
          ? [centreX, `(ih-oh)*${progress}`]
          : [centreX, `(ih-oh)*(1-${progress})`];
  return `crop=w=${width}:h=${height}:x='${x}':y='${y}'`;
}

export type BrandedFrame = {
  width: number;
  height: number;
  fps: number;
  fontFile: string;
  /** The brand font's family name, for libass. */
  fontFamily: string;
  /** The captions' language (BCP 47): which CJK face draws Han letters. */
  language: string;
  scenes: BackgroundScene[];
  /** The end card's background (a held gradient) and its frames. */
  endCard: { input: number; frames: number; start: number; lines: string[]; top: number };
  cues: CaptionCue[];
  captions: CaptionLayout | null;
  captionBox: string;
  captionText: string;
  accentBox: string;
  accentText: string;
  overlay: {
    top: number;
    fontSize: number;
    lineHeight: number;
    padding: number;
    center: { x: number; width: number };
  };
  logo: Placed | null;
  endLogo: Placed | null;
  total: number;
  posterFrame: number;
};

/**
 * Moving scenes: each image converted to yuv420p once, held with loop and panned by a moving crop, the
 * scenes joined; then, per frame, the overlay texts, the end card's call to action, the captions (libass,
 * each phrase while it is spoken), the logo in its corner, the end card's
 * large logo, and the progress bar.
 */
async function movingGraph(frame: BrandedFrame, dir: string): Promise<string> {
  const { width, height, fps, scenes, endCard } = frame;
  const graph: string[] = [];
  scenes.forEach((scene, index) => {
    const hold = `loop=loop=${Math.max(1, scene.frames) - 1}:size=1:start=0`;
    const move = scene.pan ? `,${panCrop(scene.pan, scene.frames, width, height)}` : "";
    graph.push(`[${scene.input}:v]format=yuv420p,${hold}${move},setsar=1[s${index}]`);
  });
  graph.push(
    `[${endCard.input}:v]${toFrame(frame)},format=yuv420p,loop=loop=${Math.max(1, endCard.frames) - 1}:size=1:start=0,setsar=1[s${scenes.length}]`,
  );
  const count = scenes.length + 1;
  const joined = `${Array.from({ length: count }, (_, i) => `[s${i}]`).join("")}concat=n=${count}:v=1:a=0,setpts=N/(${fps}*TB)`;

  const draws: string[] = [];
  const drawBlock = async (block: TextBlock) => {
    draws.push(...(await textDraws(block, frame.fontFile, dir)));
  };
  let sceneStart = 0;
  for (const scene of scenes) {
    const [from, to] = [sceneStart / fps, (sceneStart + scene.frames) / fps];
    sceneStart += scene.frames;
    if (!scene.overlayLines.length) continue;
    await drawBlock({
      ...frame.overlay,
      lines: scene.overlayLines,
      textColor: frame.accentText,
      boxColor: frame.accentBox,
      enable: `between(t,${from.toFixed(3)},${(to - 0.001).toFixed(3)})`,
    });
  }
  if (endCard.lines.length) await drawBlock(ctaBlock(frame, `gte(t,${endCard.start.toFixed(3)})`));
  const captions = await captionsFilter(frame, dir);
  if (captions) draws.push(captions);
  graph.push(`${joined}${draws.length ? `,${draws.join(",")}` : ""}[drawn]`);

  let last = "drawn";
  const overlay = (input: string, x: string | number, y: number, extra = "") => {
    graph.push(`[${last}][${input}]overlay=x=${x}:y=${y}${extra}[o${input}]`);
    last = `o${input}`;
  };
  if (frame.logo) {
    graph.push(`[${frame.logo.input}:v]format=rgba[logo]`);
    overlay("logo", frame.logo.x, frame.logo.y);
  }
  if (frame.endLogo) {
    graph.push(`[${frame.endLogo.input}:v]format=rgba[endlogo]`);
    overlay("endlogo", frame.endLogo.x, frame.endLogo.y, `:enable='gte(t,${endCard.start.toFixed(3)})'`);
  }
  graph.push(...progressAndPoster(frame, last));
  return graph.join(";\n");
}

/** A held background (a gradient, drawn small) at the frame's size; a frame-sized one passes unchanged. */
const toFrame = (frame: BrandedFrame) => `scale=${frame.width}:${frame.height}`;

let textFiles = 0;

const progressBarHeight = (frame: BrandedFrame) =>
  Math.max(6, Math.round(Math.min(frame.width, frame.height) * 0.012));

/** One drawtext per line of a boxed block; `enable` limits it in time (a held still needs none). */
async function textDraws(block: TextBlock, fontFile: string, dir: string) {
  const draws: string[] = [];
  const writes: Promise<void>[] = [];
  for (const [line, words] of block.lines.entries()) {
    const file = path.join(dir, `text-${textFiles++}.txt`);
    writes.push(fs.promises.writeFile(file, words));
    const y = block.top + line * block.lineHeight + block.padding;
    draws.push(
      `drawtext=fontfile=${quote(fontFile)}:textfile=${quote(file)}:expansion=none` +
        `:fontsize=${block.fontSize}:fontcolor=${ffColor(block.textColor)}` +
        `:box=1:boxcolor=${ffColor(block.boxColor)}:boxborderw=${block.padding}` +
        `:x=${block.center.x}+(${block.center.width}-text_w)/2:y=${y}` +
        (block.enable ? `:enable='${block.enable}'` : ""),
    );
  }
  await Promise.all(writes);
  return draws;
}

/** The progress bar along the top edge (a strip moved per frame), then `[video]` and the `[poster]` frame. */
function progressAndPoster(frame: BrandedFrame, last: string) {
  const barHeight = progressBarHeight(frame);
  return [
    `color=c=${ffColor(frame.accentBox)}:s=${frame.width}x${barHeight}:r=${frame.fps}:d=${(1 / frame.fps).toFixed(3)}[bar]`,
    `[${last}][bar]overlay=x='-w+w*t/${frame.total.toFixed(3)}':y=0:eval=frame,split=2[video][posterin]`,
    `[posterin]trim=start_frame=${frame.posterFrame}:end_frame=${frame.posterFrame + 1}[poster]`,
  ];
}

/**
 * The captions as one ASS file for the render and the `subtitles` filter (libass) that draws them, the
 * fonts it needs in a directory of their own; null without captions.
 */
async function captionsFilter(frame: BrandedFrame, dir: string) {
  if (!frame.captions || !frame.cues.length) return null;
  const fontsDir = path.join(dir, "caption-fonts");
  await linkCaptionFonts(
    frame.cues.map((cue) => cue.text),
    frame.fontFile,
    fontsDir,
  );
  const assFile = path.join(dir, "captions.ass");
  await fs.promises.writeFile(
    assFile,
    toAss(frame.cues, {
      width: frame.width,
      height: frame.height,
      layout: frame.captions,
      fontFamily: frame.fontFamily,
      bold: /bold/i.test(path.basename(frame.fontFile)),
      textColor: frame.captionText,
      boxColor: frame.captionBox,
      fontFor: (text) => scriptFontFor(text)?.family(frame.language) ?? null,
    }),
  );
  return `subtitles=filename=${quote(assFile)}:fontsdir=${quote(fontsDir)}`;
}

function ctaBlock(frame: BrandedFrame, enable: string): TextBlock {
  return {
    ...frame.overlay,
    top: frame.endCard.top,
    lines: frame.endCard.lines,
    textColor: frame.accentText,
    boxColor: frame.accentBox,
    enable,
  };
}

/**
 * Without motion (brand gradients), the picture changes only where a phrase or a scene does: each such
 * stretch is drawn once (background, caption through libass, logo, and the progress bar as long as the video so far)
 * and held with loop, as the text-only render always was, so nothing is drawn or copied per frame. The
 * bar thus moves on phrase by phrase: a bar moved per frame costs a copy of every held frame (measured:
 * about a quarter more encode time), and a bar redrawn every half second costs more stills than that.
 */
async function heldGraph(frame: BrandedFrame, dir: string): Promise<string> {
  const { fps, scenes, endCard, cues } = frame;
  const storyFrames = scenes.reduce((sum, scene) => sum + scene.frames, 0);
  const totalFrames = storyFrames + endCard.frames;
  const cuts = new Set<number>([0, storyFrames, totalFrames]);
  let at = 0;
  for (const scene of scenes) {
    cuts.add(at);
    at += scene.frames;
  }
  if (frame.captions) for (const cue of cues) cuts.add(Math.min(storyFrames, Math.round(cue.start * fps)));
  const bounds = [...cuts].sort((a, b) => a - b);
  type Stretch = {
    input: number;
    from: number;
    frames: number;
    blocks: TextBlock[];
    end: boolean;
    caption: boolean;
  };
  const stretches: Stretch[] = [];
  for (const [index, from] of bounds.slice(0, -1).entries()) {
    const frames = bounds[index + 1] - from;
    if (frames <= 0) continue;
    if (from >= storyFrames) {
      const blocks = endCard.lines.length ? [ctaBlock(frame, "")] : [];
      stretches.push({ input: endCard.input, from, frames, blocks, end: true, caption: false });
      continue;
    }
    let sceneEnd = 0;
    const scene = scenes.find((candidate) => {
      sceneEnd += candidate.frames;
      return from < sceneEnd;
    }) as BackgroundScene;
    const time = (from + 0.5) / fps;
    const cue = cues.find((candidate) => time >= candidate.start && time < candidate.end);
    stretches.push({ input: scene.input, from, frames, blocks: [], end: false, caption: Boolean(cue) });
  }

  const graph: string[] = [];
  const labels = (prefix: string, count: number) =>
    Array.from({ length: count }, (_, i) => `[${prefix}${i}]`).join("");
  const uses = new Map<number, number>();
  for (const stretch of stretches) uses.set(stretch.input, (uses.get(stretch.input) ?? 0) + 1);
  for (const [input, count] of uses) {
    graph.push(`[${input}:v]${toFrame(frame)},format=yuv420p,split=${count}${labels(`in${input}_`, count)}`);
  }
  const ends = stretches.filter((stretch) => stretch.end).length;
  if (frame.logo) {
    graph.push(
      `[${frame.logo.input}:v]format=rgba,split=${stretches.length}${labels("logo", stretches.length)}`,
    );
  }
  if (frame.endLogo)
    graph.push(`[${frame.endLogo.input}:v]format=rgba,split=${ends}${labels("endlogo", ends)}`);
  const taken = new Map<number, number>();
  let endsTaken = 0;
  const barHeight = progressBarHeight(frame);
  // Every stretch's text files written at once: the encode is waiting for this graph.
  const [texts, captions] = await Promise.all([
    Promise.all(
      stretches.map(async (stretch) =>
        (await Promise.all(stretch.blocks.map((block) => textDraws(block, frame.fontFile, dir)))).flat(),
      ),
    ),
    captionsFilter(frame, dir),
  ]);
  for (const [index, stretch] of stretches.entries()) {
    const use = taken.get(stretch.input) ?? 0;
    taken.set(stretch.input, use + 1);
    let label = `in${stretch.input}_${use}`;
    const draws = texts[index];
    // A stretch's still is captioned at the middle of its first frame's time (one libass per stretch).
    if (stretch.caption && captions)
      draws.unshift(`setpts=${((stretch.from + 0.5) / fps).toFixed(4)}/TB`, captions);
    const bar = Math.round((frame.width * stretch.from) / totalFrames);
    if (bar > 0)
      draws.push(`drawbox=x=0:y=0:w=${bar}:h=${barHeight}:color=${ffColor(frame.accentBox)}:t=fill`);
    if (draws.length) {
      graph.push(`[${label}]${draws.join(",")}[t${index}]`);
      label = `t${index}`;
    }
    if (frame.logo) {
      graph.push(
        `[${label}][logo${index}]overlay=x=${frame.logo.x}:y=${frame.logo.y}:format=yuv420[l${index}]`,
      );
      label = `l${index}`;
    }
    if (stretch.end && frame.endLogo) {
      const endLogo = `endlogo${endsTaken++}`;
      graph.push(
        `[${label}][${endLogo}]overlay=x=${frame.endLogo.x}:y=${frame.endLogo.y}:format=yuv420[e${index}]`,
      );
      label = `e${index}`;
    }
    graph.push(
      `[${label}]format=yuv420p,loop=loop=${Math.max(1, stretch.frames) - 1}:size=1:start=0,setsar=1[h${index}]`,
    );
  }
  graph.push(
    `${labels("h", stretches.length)}concat=n=${stretches.length}:v=1:a=0,setpts=N/(${fps}*TB),split=2[video][posterin]`,
    `[posterin]trim=start_frame=${frame.posterFrame}:end_frame=${frame.posterFrame + 1}[poster]`,
  );
  return graph.join(";\n");
}

/**
 * The video half of the render's one filter graph, ending in `[video]` and `[poster]`: with moving
 * scenes drawn per frame (movingGraph), with still ones drawn once per stretch (heldGraph). Text goes
 * through files (`expansion=none`), never into the graph.
 */
export function videoGraph(frame: BrandedFrame, dir: string): Promise<string> {
  return frame.scenes.some((scene) => scene.pan) ? movingGraph(frame, dir) : heldGraph(frame, dir);
}
