import type { VideoAspectRatio } from "@/lib/contracts/video";
import { wrapLines } from "./scenes";

/** The short side of every video, in pixels (DESIGN §5). */
export const SHORT_SIDE = 720;

const RATIOS: Record<VideoAspectRatio, [number, number]> = {
  "9:16": [9, 16],
  "4:5": [4, 5],
  "1:1": [1, 1],
  "16:9": [16, 9],
};

/** 720 px on the short side, both sides even (H.264 with yuv420p needs that): 9:16 → 720×1280. */
export function frameSize(aspectRatio: VideoAspectRatio) {
  const [w, h] = RATIOS[aspectRatio];
  const even = (value: number) => Math.round(value / 2) * 2;
  return w <= h
    ? { width: SHORT_SIDE, height: even((SHORT_SIDE * h) / w) }
    : { width: even((SHORT_SIDE * w) / h), height: SHORT_SIDE };
}

type Box = { x: number; y: number; width: number; height: number };

export type FrameLayout = {
  width: number;
  height: number;
  /** The brand's name, top left. */
  brand: { x: number; y: number; fontSize: number };
  /** The accent strip along the bottom edge. */
  accentHeight: number;
  /** Where the scene text is centred. */
  text: Box;
  /** Where the avatar goes (a square), in avatar mode. */
  avatar: Box | null;
};

/**
 * Where things go in each shape. Landscape and square frames put the avatar on the right, beside the
 * text; portrait frames (9:16, 4:5) put it in the lower part, under the text, where a reel's presenter
 * stands.
 */
export function frameLayout(aspectRatio: VideoAspectRatio, withAvatar: boolean): FrameLayout {
  const { width, height } = frameSize(aspectRatio);
  const margin = Math.round(SHORT_SIDE * 0.09);
  const brand = { x: margin, y: Math.round(SHORT_SIDE * 0.072), fontSize: Math.round(SHORT_SIDE * 0.047) };
  const accentHeight = Math.round(SHORT_SIDE * 0.02);
  const top = brand.y + brand.fontSize + Math.round(margin / 2);
  const bottom = height - accentHeight - Math.round(margin / 2);
  const full: Box = { x: margin, y: top, width: width - 2 * margin, height: bottom - top };
  if (!withAvatar) return { width, height, brand, accentHeight, text: full, avatar: null };

  if (width > height) {
    // Landscape: a 440 px avatar 70 px from the right edge, vertically centred; text to its left.
    const size = 440;
    const avatar = { x: width - size - 70, y: Math.round((height - size) / 2), width: size, height: size };
    const text = { ...full, x: Math.round(margin * 0.6), width: avatar.x - Math.round(margin * 0.6) - 30 };
    return { width, height, brand, accentHeight, text, avatar };
  }
  if (width === height) {
    const size = Math.round(width * 0.4);
    const avatar = {
      x: width - size - 36,
      y: Math.round((height - size) / 2 + 30),
      width: size,
      height: size,
    };
    const text = { ...full, x: 40, width: avatar.x - 40 - 24 };
    return { width, height, brand, accentHeight, text, avatar };
  }
  const size = Math.round(width * (height / width > 1.5 ? 0.6 : 0.42));
  const avatar = {
    x: Math.round((width - size) / 2),
    y: bottom - size - Math.round(margin * 0.4),
    width: size,
    height: size,
  };
  const text = { ...full, height: avatar.y - 24 - top };
  return { width, height, brand, accentHeight, text, avatar };
}

/** DejaVu Sans averages a little under 0.6 em a character; this leaves room for wide letters. */
const CHAR_WIDTH_EM = 0.6;
const LINE_HEIGHT_EM = 1.3;

export type SceneText = { fontSize: number; lineHeight: number; lines: string[][] };

/**
 * One font size for the whole video, the largest (from a size that reads well on a phone down to a
 * floor) at which every scene, word-wrapped to the text box's width, fits its height.
 */
export function fitSceneText(texts: string[], box: { width: number; height: number }): SceneText {
  const largest = Math.round(SHORT_SIDE * 0.075);
  const smallest = Math.round(SHORT_SIDE * 0.04);
  let fallback: SceneText | undefined;
  for (let fontSize = largest; fontSize >= smallest; fontSize -= 2) {
    const lineHeight = Math.round(fontSize * LINE_HEIGHT_EM);
    const lineChars = Math.max(8, Math.floor(box.width / (fontSize * CHAR_WIDTH_EM)));
    const lines = texts.map((text) => wrapLines(text, lineChars));
    fallback = { fontSize, lineHeight, lines };
    if (lines.every((scene) => scene.length * lineHeight <= box.height)) return fallback;
  }
  return fallback as SceneText;
}
