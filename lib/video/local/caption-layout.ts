import type { VideoAspectRatio } from "@/lib/contracts/video";
import { type PixelBox, safeArea } from "./safe-areas";
import { cleanSceneText, wrapLines } from "./scenes";

/** An average character's width in em, bold, per bundled font, on the wide side so lines never overflow. */
const CHAR_WIDTH_EM: Record<string, number> = { sans: 0.62, serif: 0.6, display: 0.45 };
/** Lines longer than this are hard to read at a glance, however wide the frame. */
const MAX_LINE_CHARS = 42;
export const MAX_CAPTION_LINES = 2;

export type CaptionLayout = {
  fontSize: number;
  lineHeight: number;
  /** The box's padding around each line (drawtext's boxborderw). */
  padding: number;
  lineChars: number;
  /** Where lines are centred horizontally, and the bottom of the last line's box. */
  safe: PixelBox;
  bottom: number;
};

/**
 * How captions sit in a frame of this shape: a size that reads on a phone, lines as long as the safe
 * area's width allows (so 9:16 lines are shorter than 16:9 ones), the block's bottom on the safe area's.
 */
export function captionLayout(
  aspectRatio: VideoAspectRatio,
  width: number,
  height: number,
  font: string,
): CaptionLayout {
  const safe = safeArea(aspectRatio, width, height);
  const fontSize = Math.round(Math.min(width, height) * (aspectRatio === "16:9" ? 0.05 : 0.055));
  const padding = Math.round(fontSize * 0.3);
  const lineHeight = Math.round(fontSize * 1.2) + 2 * padding;
  const usable = safe.width - 2 * padding;
  const lineChars = Math.min(MAX_LINE_CHARS, Math.floor(usable / (fontSize * (CHAR_WIDTH_EM[font] ?? 0.62))));
  return { fontSize, lineHeight, padding, lineChars, safe, bottom: safe.y + safe.height };
}

const fits = (text: string, lineChars: number) => wrapLines(text, lineChars).length <= MAX_CAPTION_LINES;

/**
 * The script cut into caption phrases: each at most two lines of `lineChars`, cut at sentence ends
 * first and then between words; short sentences share a phrase when they fit. Each phrase is spoken
 * on its own, so its caption shows exactly while it is heard.
 */
export function captionPhrases(script: string, lineChars: number): string[] {
  const sentences = script
    .split(/(?<=[.!?…])\s+|\n+/)
    .map(cleanSceneText)
    .filter(Boolean);
  const phrases: string[] = [];
  for (const sentence of sentences) {
    const last = phrases.at(-1);
    if (last !== undefined && /[.!?…]$/.test(last) && fits(`${last} ${sentence}`, lineChars)) {
      phrases[phrases.length - 1] = `${last} ${sentence}`;
      continue;
    }
    let current = "";
    for (const word of sentence.split(" ")) {
      const next = current ? `${current} ${word}` : word;
      if (current && !fits(next, lineChars)) {
        phrases.push(current);
        current = word;
      } else {
        current = next;
      }
    }
    if (current) phrases.push(current);
  }
  return phrases;
}

export type CaptionCue = { text: string; lines: string[]; start: number; end: number };

const stamp = (seconds: number, separator: "." | ",") => {
  const ms = Math.round(seconds * 1000);
  const pad = (value: number, size = 2) => String(value).padStart(size, "0");
  return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}${separator}${pad(ms % 1000, 3)}`;
};

/**
 * The cues as a WebVTT file (what a <track> element reads). The header names the language the captions are
 * in (`Language: es`, the metadata line players and uploaders read; browsers skip header lines).
 */
export function toWebVtt(cues: CaptionCue[], language?: string) {
  const body = cues.map(
    (cue, index) =>
      `${index + 1}\n${stamp(cue.start, ".")} --> ${stamp(cue.end, ".")}\n${cue.lines.join("\n")}\n`,
  );
  return `WEBVTT${language ? `\nKind: captions\nLanguage: ${language}` : ""}\n\n${body.join("\n")}`;
}

/** The cues as SubRip (.srt), what most editors and uploaders take. */
export function toSrt(cues: CaptionCue[]) {
  return cues
    .map(
      (cue, index) =>
        `${index + 1}\n${stamp(cue.start, ",")} --> ${stamp(cue.end, ",")}\n${cue.lines.join("\n")}\n`,
    )
    .join("\n");
}
