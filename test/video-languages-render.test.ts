import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { VideoAspectRatio } from "@/lib/contracts/video";
import { getMediaStorage } from "@/lib/media/storage";
import { linkCaptionFonts, SCRIPT_FONTS } from "@/lib/video/local/caption-fonts";
import { captionLayout, wrapCaption } from "@/lib/video/local/caption-layout";
import { localVideoProvider } from "@/lib/video/local/local-provider";
import { safeArea } from "@/lib/video/local/safe-areas";
import { espeakVoice } from "@/lib/video/local/speech-engines";

// Videos in the post's language, end to end with real ffmpeg (libass), real OCR with tesseract's
// language packs (tesseract-ocr-spa, -ara, -jpn) and real audio analysis. No database: the renderer is
// called with what the worker passes (the post's language as the brand's).
const run = promisify(execFile);

const PRIMARY = "#1E3A8A";
let dataDir: string;
const saved = { ...process.env };

type Rendered = Awaited<ReturnType<typeof localVideoProvider.render>> & { file: string };

async function render(
  language: string,
  script: string,
  aspectRatio: VideoAspectRatio,
  images: string[] = [],
) {
  const jobId = `vjb_lang${language}${Math.random().toString(36).slice(2, 8)}`;
  const result = await localVideoProvider.render(
    {
      jobId,
      attempt: 1,
      script,
      brief: null,
      mode: "regular",
      aspectRatio,
      brand: {
        name: "Northwind",
        language,
        primaryColor: PRIMARY,
        secondaryColor: "#F59E0B",
        avatarFramesKey: null,
        font: "sans",
        logoKey: null,
        musicKey: null,
        ttsVoice: null,
      },
      visuals: { images: images.map((key) => ({ key, overlayText: null })), callToAction: null },
    },
    { signal: new AbortController().signal, onProgress: () => {} },
  );
  return { ...result, file: path.join(dataDir, "media", result.videoKey) } as Rendered;
}

async function frameAt(video: string, seconds: number) {
  const { stdout } = await run(
    "ffmpeg",
    ["-v", "error", "-ss", seconds.toFixed(3), "-i", video, "-frames:v", "1", "-f", "image2pipe"].concat([
      "-c:v",
      "png",
      "-",
    ]),
    { encoding: "buffer", maxBuffer: 64 * 1024 * 1024 },
  );
  return stdout as Buffer;
}

/** The caption in the middle of cue `index`, read with tesseract in `language` (white letters → black on white). */
async function readCaption(video: Rendered, aspectRatio: VideoAspectRatio, index: number, language: string) {
  const { start, end } = video.spoken?.[index] ?? { start: 0, end: 0 };
  const png = await frameAt(video.file, (start + end) / 2);
  const { width, height } = (await sharp(png).metadata()) as { width: number; height: number };
  const safe = safeArea(aspectRatio, width, height);
  const lower = Math.round(safe.height * 0.45);
  const crop = await sharp(png)
    .extract({ left: safe.x, top: safe.y + safe.height - lower, width: safe.width, height: lower })
    .grayscale()
    .threshold(215)
    .negate()
    .png()
    .toBuffer();
  const file = path.join(dataDir, `ocr-${Math.random().toString(36).slice(2)}.png`);
  await fs.promises.writeFile(file, crop);
  const { stdout } = await run("tesseract", [file, "-", "-l", language, "--psm", "6"]);
  return { text: stdout.trim(), png, safe };
}

/** Pixels of the caption box's colour: how many inside the safe area, and a few outside it. */
async function boxPixels(png: Buffer, safe: { x: number; y: number; width: number; height: number }) {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const [r0, g0, b0] = [1, 3, 5].map((i) => Number.parseInt(PRIMARY.slice(i, i + 2), 16));
  let inside = 0;
  const outside: string[] = [];
  for (let y = 0; y < info.height; y++) {
    for (let x = 0; x < info.width; x++) {
      const at = (y * info.width + x) * 3;
      const near =
        Math.abs(data[at] - r0) < 24 && Math.abs(data[at + 1] - g0) < 24 && Math.abs(data[at + 2] - b0) < 24;
      if (!near) continue;
      if (x >= safe.x && x < safe.x + safe.width && y >= safe.y && y < safe.y + safe.height) inside++;
      else if (outside.length < 5) outside.push(`${x},${y}`);
    }
  }
  return { inside, outside };
}

/** Mean level (dB) of the audio between two moments. */
async function meanVolume(video: string, from: number, to: number) {
  const { stderr } = await run("ffmpeg", [
    "-hide_banner",
    "-ss",
    from.toFixed(3),
    "-t",
    (to - from).toFixed(3),
    "-i",
    video,
    "-vn",
    "-af",
    "volumedetect",
    "-f",
    "null",
    "-",
  ]);
  const match = stderr.match(/mean_volume: (-?[\d.]+|-inf) dB/);
  return match && match[1] !== "-inf" ? Number(match[1]) : -120;
}

const spokenVolume = (video: Rendered) => {
  const { start, end } = video.spoken?.[0] ?? { start: 0, end: 0 };
  return meanVolume(video.file, start, end);
};

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bs-languages-"));
  process.env.DATA_DIR = dataDir;
  process.env.TTS_ENGINES = "espeak-ng";
  // A grey photo (no brand colour in it), so the caption box's colour shows only where the box is.
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="1600"><rect width="1200" height="1600" fill="rgb(120,120,120)"/></svg>`;
  await getMediaStorage().put("test/grey.jpg", await sharp(Buffer.from(svg)).jpeg().toBuffer());
});

afterAll(() => {
  process.env = { ...saved };
  if (!process.env.KEEP_RENDER) fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("a Spanish video", () => {
  let video: Rendered;
  beforeAll(async () => {
    video = await render(
      "es",
      "El café de Málaga llega cada mañana. Señoras y señores, pruébenlo también.",
      "16:9",
    );
  });

  it("burns in the accented letters, and the Spanish voice speaks", async () => {
    const { text } = await readCaption(video, "16:9", 0, "spa");
    for (const word of ["café", "Málaga", "mañana"]) expect(text, `read as "${text}"`).toContain(word);
    expect(video.voice).toBe("espeak-ng:es");
    expect(await spokenVolume(video)).toBeGreaterThan(-40);
  });
});

describe("an Arabic video", () => {
  const words = ["مرحبا", "بكم", "في", "متجرنا", "الجديد"];
  let video: Rendered;
  beforeAll(async () => {
    video = await render("ar", `${words.join(" ")}.`, "16:9");
  });

  it("burns in the words joined and right to left (OCR reads them in order), and the Arabic voice speaks", async () => {
    const { text } = await readCaption(video, "16:9", 0, "ara");
    const read = text.split(/\s+/);
    const found = words.filter((word) => read.includes(word));
    expect(found.length, `read as "${text}"`).toBeGreaterThanOrEqual(4);
    // The line's base direction is right to left: the full stop ends it on the left, not before the first word.
    expect(text.startsWith(words[0]), `read as "${text}"`).toBe(true);
    // In the order they are written: a line drawn left to right would read backwards.
    expect(found.map((word) => read.indexOf(word))).toEqual(
      [...found.map((word) => read.indexOf(word))].sort((a, b) => a - b),
    );
    expect(video.voice).toBe("espeak-ng:ar");
    expect(await spokenVolume(video)).toBeGreaterThan(-40);
  });
});

describe("a Japanese video in 9:16", () => {
  const SCRIPT = "毎朝焼きたてのパンと香り高いコーヒーを皆様のためにご用意しております。";
  let video: Rendered;
  beforeAll(async () => {
    // Over a panned photo: the moving scenes' graph (Spanish and Arabic take the held gradients').
    video = await render("ja", SCRIPT, "9:16", ["test/grey.jpg"]);
  });

  it("wraps the caption without spaces inside the frame and the safe area, and the Japanese voice speaks", async () => {
    const cue = video.cues?.[0];
    expect(cue?.lines.length).toBe(2);
    expect(video.cues?.flatMap((each) => each.lines).join("")).toBe(SCRIPT);
    const { text, png, safe } = await readCaption(video, "9:16", 0, "jpn");
    const read = new Set(text.replace(/\s+/g, ""));
    const chars = [...(cue?.lines.join("") ?? "")];
    const found = chars.filter((char) => read.has(char));
    expect(found.length, `read as "${text}"`).toBeGreaterThanOrEqual(Math.ceil(chars.length * 0.7));
    // Both lines are on screen: characters of the first and of the second line are read.
    for (const line of cue?.lines ?? []) expect([...line].some((char) => read.has(char))).toBe(true);
    const box = await boxPixels(png, safe);
    expect(box.inside).toBeGreaterThan(2000);
    expect(box.outside).toEqual([]);
    expect(video.voice).toBe("espeak-ng:ja");
    expect(await spokenVolume(video)).toBeGreaterThan(-40);
  });
});

describe("caption text and voices per language", () => {
  it("wraps CJK text between words within the line's width, and Latin text as before", () => {
    const layout = captionLayout("9:16", 1080, 1920, "sans");
    const lines = wrapCaption(
      "毎朝焼きたてのパンと香り高いコーヒーを皆様のためにご用意しております。",
      layout.lineChars,
      "ja",
    );
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) expect([...line].length * 2).toBeLessThanOrEqual(layout.lineChars);
    expect(wrapCaption("one two three four", 9)).toEqual(["one two", "three", "four"]);
  });

  it("picks eSpeak NG's voice for a tag, its language's, or none", () => {
    expect(espeakVoice("es-MX")).toBe("es");
    expect(espeakVoice("pt-BR")).toBe("pt-br");
    expect(espeakVoice("zh-CN")).toBe("cmn");
    expect(espeakVoice("zh-HK")).toBe("yue");
    expect(espeakVoice("ar")).toBe("ar");
    expect(espeakVoice("tlh")).toBeNull();
  });

  it("fails a render whose script's font is missing, naming the Debian package", async () => {
    const missing = SCRIPT_FONTS.map((font) => ({ ...font, file: path.join(dataDir, "no-such-font.ttf") }));
    const fontsDir = path.join(dataDir, "fonts-missing");
    await expect(linkCaptionFonts(["مرحبا بكم"], "/dev/null", fontsDir, missing)).rejects.toThrow(
      /Arabic script.*fonts-noto-core/,
    );
    await expect(linkCaptionFonts(["ようこそ"], "/dev/null", fontsDir, missing)).rejects.toThrow(
      /fonts-noto-cjk/,
    );
    // Latin text needs no script font.
    await expect(linkCaptionFonts(["Café"], "/dev/null", fontsDir, missing)).resolves.toBeUndefined();
  });
});
