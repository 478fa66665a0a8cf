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
  /** The box's padding around each line (libass's box edge for captions, drawtext's boxborderw for overlays). */
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

/** Chinese, Japanese and Korean letters (and their punctuation): written without spaces, a full em wide. */
const CJK = /[\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af\uff00-\uffef]/;
/** A sentence's end, Latin or CJK. */
export const SENTENCE_END = /[.!?…。！？]$/;

/** Text's width in average Latin letters: a CJK letter is about two of them. */
const widthOf = (text: string) => [...text].reduce((sum, char) => sum + (CJK.test(char) ? 2 : 1), 0);

/**
 * The units a caption may break between: words for spaced scripts; for CJK text, the words
 * Intl.Segmenter finds (ICU's dictionaries), punctuation kept with the word before it.
 */
function breakUnits(text: string, language: string): { units: string[]; joiner: string } {
  if (!CJK.test(text)) return { units: text.split(" ").filter(Boolean), joiner: " " };
  const units: string[] = [];
  for (const { segment, isWordLike } of new Intl.Segmenter(language, { granularity: "word" }).segment(text)) {
    if (!isWordLike && units.length && segment.trim()) units[units.length - 1] += segment;
    else units.push(segment);
  }
  return { units, joiner: "" };
}

/**
 * A caption's lines of at most `lineChars` (in Latin letters' widths): spaced scripts wrap between
 * words as before (wrapLines); CJK text wraps between words without spaces, a longer word cut.
 */
export function wrapCaption(text: string, lineChars: number, language = "en"): string[] {
  if (!CJK.test(text)) return wrapLines(text, lineChars);
  const lines: string[] = [];
  let current = "";
  for (const unit of breakUnits(text, language).units) {
    if (current && widthOf(current + unit) > lineChars) {
      lines.push(current.trim());
      current = unit.trimStart();
    } else {
      current += unit;
    }
    while (widthOf(current) > lineChars) {
      let cut = 0;
      let width = 0;
      const chars = [...current];
      while (cut < chars.length && width + widthOf(chars[cut]) <= lineChars) width += widthOf(chars[cut++]);
      lines.push(chars.slice(0, Math.max(1, cut)).join(""));
      current = chars.slice(Math.max(1, cut)).join("");
    }
  }
  if (current.trim()) lines.push(current.trim());
  return lines;
}

const fits = (text: string, lineChars: number, language: string) =>
  wrapCaption(text, lineChars, language).length <= MAX_CAPTION_LINES;

/**
 * The script cut into caption phrases: each at most two lines of `lineChars`, cut at sentence ends
 * first and then between words; short sentences share a phrase when they fit. Each phrase is spoken
 * on its own, so its caption shows exactly while it is heard.
 */
export function captionPhrases(script: string, lineChars: number, language = "en"): string[] {
  const sentences = script
    .split(/(?<=[.!?…])\s+|(?<=[。！？])|\n+/)
    .map(cleanSceneText)
    .filter(Boolean);
  const phrases: string[] = [];
  for (const sentence of sentences) {
    const last = phrases.at(-1);
    const joiner = CJK.test(sentence) ? "" : " ";
    if (
      last !== undefined &&
      SENTENCE_END.test(last) &&
      fits(`${last}${joiner}${sentence}`, lineChars, language)
    ) {
      phrases[phrases.length - 1] = `${last}${joiner}${sentence}`;
      continue;
    }
    let current = "";
    const { units, joiner: between } = breakUnits(sentence, language);
    for (const word of units) {
      const next = current ? `${current}${between}${word}` : word;
      if (current && !fits(next, lineChars, language)) {
        phrases.push(current);
        current = word.trimStart();
      } else {
        current = next;
      }
    }
    if (current.trim()) phrases.push(current.trim());
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

/** A hex colour (#RRGGBB) as ASS writes it: &HAABBGGRR, opaque. */
const assColor = (hex: string) => `&H00${hex.slice(5, 7)}${hex.slice(3, 5)}${hex.slice(1, 3)}`.toUpperCase();
const assStamp = (seconds: number) => {
  const cs = Math.max(0, Math.round(seconds * 100));
  const pad = (value: number) => String(value).padStart(2, "0");
  return `${Math.floor(cs / 360_000)}:${pad(Math.floor(cs / 6000) % 60)}:${pad(Math.floor(cs / 100) % 60)}.${pad(cs % 100)}`;
};
/** Caption text as an ASS event's: braces (override blocks) and backslashes (escapes) shown, not read. */
const assText = (text: string) => text.replace(/\\/g, "\u2216").replace(/\{/g, "(").replace(/\}/g, ")");

/**
 * The captions as an ASS subtitle file for libass (ffmpeg's `subtitles` filter), in the look drawtext
 * gave them: the brand font, text in the readable colour on a box of the brand's primary colour (border
 * style 3, the padding as the box's edge), centred in the safe area, the last line's box on its bottom.
 * Lines are cut here (WrapStyle 2: only \N breaks), so CJK wraps as wrapCaption decides; libass shapes
 * and orders each line (HarfBuzz, FriBidi), so Arabic and Hebrew read right to left, letters joined. A
 * caption in a script the brand font lacks names its Noto font (`fontFor`).
 */
export function toAss(
  cues: CaptionCue[],
  options: {
    width: number;
    height: number;
    layout: CaptionLayout;
    fontFamily: string;
    /** Ask for the bold face (the brand's bold file is already bold: false keeps it from being thickened). */
    bold: boolean;
    textColor: string;
    boxColor: string;
    fontFor: (text: string) => string | null;
  },
) {
  const { width, height, layout, textColor, boxColor } = options;
  const marginL = layout.safe.x + layout.padding;
  const marginR = width - layout.safe.x - layout.safe.width + layout.padding;
  const marginV = height - layout.bottom + layout.padding;
  // ASS sizes a font by its ascent plus descent, about 1.2 em: the same letters as drawtext's em size.
  const size = Math.round(layout.fontSize * 1.2);
  const style = [
    "Caption",
    options.fontFamily,
    size,
    assColor(textColor),
    assColor(textColor),
    assColor(boxColor),
    assColor(boxColor),
    options.bold ? -1 : 0,
    0,
    0,
    0,
    100,
    100,
    0,
    0,
    3,
    layout.padding,
    0,
    2,
    marginL,
    marginR,
    marginV,
    // Encoding -1: each line's base direction from its first strong letter (libass), so an Arabic
    // sentence's full stop ends it on the left; 1 would lay every line out left to right.
    -1,
  ].join(",");
  const events = cues.map((cue) => {
    const family = options.fontFor(cue.text);
    const override = family ? `{\\fn${family}\\b1}` : "";
    return `Dialogue: 0,${assStamp(cue.start)},${assStamp(cue.end)},Caption,,0,0,0,,${override}${cue.lines.map(assText).join("\\N")}`;
  });
  return [
    "[Script Info]",
    "ScriptType: v4.00+",
    `PlayResX: ${width}`,
    `PlayResY: ${height}`,
    "WrapStyle: 2",
    "ScaledBorderAndShadow: yes",
    "",
    "[V4+ Styles]",
    "Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding",
    `Style: ${style}`,
    "",
    "[Events]",
    "Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text",
    ...events,
    "",
  ].join("\n");
}
