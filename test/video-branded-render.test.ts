import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { buffer } from "node:stream/consumers";
import { promisify } from "node:util";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { VideoAspectRatio } from "@/lib/contracts/video";
import { contrastRatio, readableTextOn } from "@/lib/ffmpeg/contrast";
import { getMediaStorage } from "@/lib/media/storage";
import { captionLayout, captionPhrases } from "@/lib/video/local/caption-layout";
import { localVideoProvider } from "@/lib/video/local/local-provider";
import { safeArea } from "@/lib/video/local/safe-areas";
import { wrapLines } from "@/lib/video/local/scenes";
import { type FakeOpenAI, startFakeOpenAI } from "./support/fake-openai";

// The branded local render, end to end with real ffmpeg, real OCR (tesseract) and real audio analysis.
// It needs no database: it calls the renderer with what the worker would pass.
const run = promisify(execFile);

const PRIMARY = "#1E3A8A";
const BRAND = {
  name: "Northwind Coffee",
  language: "en",
  primaryColor: PRIMARY,
  secondaryColor: "#F59E0B",
  avatarFramesKey: null,
  font: "sans",
};
// Three phrases with no word in common, so OCR tells them apart.
const SCRIPT =
  "Fresh beans arrive daily from small farms. Visit our corner shop near the station. Bring friends along this weekend.";
const WORDS = SCRIPT.toLowerCase()
  .split(/[^a-z]+/)
  .filter(Boolean);

let dataDir: string;
let fake: FakeOpenAI;
const saved = { ...process.env };

async function frameAt(video: string, seconds: number) {
  const { stdout } = await run(
    "ffmpeg",
    [
      "-v",
      "error",
      "-ss",
      seconds.toFixed(3),
      "-i",
      video,
      "-frames:v",
      "1",
      "-f",
      "image2pipe",
      "-c:v",
      "png",
      "-",
    ],
    { encoding: "buffer", maxBuffer: 64 * 1024 * 1024 },
  );
  return stdout as Buffer;
}

async function ocr(png: Buffer) {
  const file = path.join(dataDir, `ocr-${Math.random().toString(36).slice(2)}.png`);
  await fs.promises.writeFile(file, png);
  const { stdout } = await run("tesseract", [file, "-", "--psm", "6"]);
  return stdout
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter(Boolean);
}

/** Mean level (dB) of the audio between two moments, after an optional filter. */
async function meanVolume(video: string, from: number, to: number, filter = "anull") {
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
    `${filter},volumedetect`,
    "-f",
    "null",
    "-",
  ]);
  const match = stderr.match(/mean_volume: (-?[\d.]+|-inf) dB/);
  return match && match[1] !== "-inf" ? Number(match[1]) : -120;
}

type Rendered = Awaited<ReturnType<typeof localVideoProvider.render>> & { file: string };

async function render(
  aspectRatio: VideoAspectRatio,
  extra: { images?: string[]; music?: boolean; ttsVoice?: string; captions?: boolean; font?: string } = {},
) {
  const jobId = `vjb_brand${aspectRatio.replace(":", "x")}${Math.random().toString(36).slice(2, 8)}`;
  const result = await localVideoProvider.render(
    {
      jobId,
      attempt: 1,
      script: SCRIPT,
      brief: null,
      mode: "regular",
      aspectRatio,
      captions: extra.captions,
      brand: {
        ...BRAND,
        font: extra.font ?? BRAND.font,
        logoKey: "test/logo.png",
        musicKey: extra.music ? "test/music.wav" : null,
        ttsVoice: extra.ttsVoice ?? null,
      },
      visuals: {
        images: (extra.images ?? ["test/photo-a.jpg", "test/photo-b.jpg"]).map((key, index) => ({
          key,
          overlayText: index === 0 ? "NEW" : null,
        })),
        callToAction: "Order today",
      },
    },
    { signal: new AbortController().signal, onProgress: () => {} },
  );
  return { ...result, file: path.join(dataDir, "media", result.videoKey) } as Rendered;
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bs-branded-"));
  process.env.DATA_DIR = dataDir;
  fake = await startFakeOpenAI();
  const storage = getMediaStorage();
  // Grey photos (no brand colour in them), a logo of bold red, green and white blocks, a 13 kHz tone.
  for (const [name, shade] of [
    ["photo-a.jpg", 90],
    ["photo-b.jpg", 150],
  ] as const) {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="1200"><rect width="1600" height="1200" fill="rgb(${shade},${shade},${shade})"/><circle cx="800" cy="600" r="400" fill="rgb(${shade + 40},${shade + 40},${shade + 40})"/></svg>`;
    await storage.put(`test/${name}`, await sharp(Buffer.from(svg)).jpeg().toBuffer());
  }
  const logo = `<svg xmlns="http://www.w3.org/2000/svg" width="300" height="150"><rect width="150" height="150" fill="#E11D48"/><rect x="150" width="150" height="75" fill="#16A34A"/><rect x="150" y="75" width="150" height="75" fill="#FFFFFF"/></svg>`;
  await storage.put("test/logo.png", await sharp(Buffer.from(logo)).png().toBuffer());
  const music = path.join(dataDir, "music.wav");
  await run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=f=13000:d=4", "-ar", "44100", music]);
  await storage.put("test/music.wav", music);
});

afterAll(async () => {
  process.env = { ...saved };
  await fake.close();
  if (!process.env.KEEP_RENDER) fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("caption layout", () => {
  it("fits shorter lines in a 9:16 frame than in a 16:9 one, and cuts phrases to at most two lines", () => {
    const portrait = captionLayout("9:16", 720, 1280, "sans");
    const landscape = captionLayout("16:9", 1280, 720, "sans");
    expect(portrait.lineChars).toBeLessThan(landscape.lineChars);
    const phrases = captionPhrases(`${SCRIPT} ${SCRIPT}`, portrait.lineChars);
    for (const phrase of phrases) expect(wrapLines(phrase, portrait.lineChars).length).toBeLessThanOrEqual(2);
    expect(phrases.join(" ")).toBe(`${SCRIPT} ${SCRIPT}`);
  });
});

describe("caption colours", () => {
  it("picks a text colour with at least 4.5:1 against any box colour", () => {
    for (const box of ["#000000", "#FFFFFF", "#777777", "#1E3A8A", "#F59E0B", "#FF0000", "#00FF00"]) {
      expect(contrastRatio(readableTextOn(box), box)).toBeGreaterThanOrEqual(4.5);
    }
  });
});

// Each shape once, in each bundled font between them (Bebas Neue is the narrowest, Lora the serif).
describe.each([
  ["16:9", "sans"],
  ["1:1", "display"],
  ["4:5", "serif"],
  ["9:16", "sans"],
] as const)("a %s branded video in the %s font", (aspectRatio, font) => {
  let video: Rendered;
  beforeAll(async () => {
    video = await render(aspectRatio, { music: aspectRatio === "9:16", font });
  });

  it("shows each phrase as the caption while it is spoken, inside the safe area", async () => {
    const { width, height } = (await sharp(await frameAt(video.file, 0.5)).metadata()) as {
      width: number;
      height: number;
    };
    const safe = safeArea(aspectRatio, width, height);
    expect(video.cues?.length).toBeGreaterThanOrEqual(2);
    for (const [index, cue] of (video.cues ?? []).entries()) {
      const { start, end } = video.spoken?.[index] ?? { start: 0, end: 0 };
      const png = await frameAt(video.file, (start + end) / 2);
      // The caption block sits on the safe area's bottom: read the lower part of the safe area.
      const lower = Math.round(safe.height * 0.55);
      const crop = await sharp(png)
        .extract({ left: safe.x, top: safe.y + safe.height - lower, width: safe.width, height: lower })
        // The caption's white letters as black on white, the way tesseract reads best.
        .grayscale()
        .threshold(215)
        .negate()
        .png()
        .toBuffer();
      const read = await ocr(crop);
      const expected = cue.text
        .toLowerCase()
        .split(/[^a-z]+/)
        .filter(Boolean);
      const others = WORDS.filter((word) => !expected.includes(word));
      const found = expected.filter((word) => read.includes(word));
      expect(found.length, `phrase ${index} read as "${read.join(" ")}"`).toBeGreaterThanOrEqual(
        Math.ceil(expected.length * 0.75),
      );
      expect(others.filter((word) => read.includes(word))).toEqual([]);

      // Every pixel in the caption box's colour lies inside the safe area.
      const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
      const [r0, g0, b0] = [1, 3, 5].map((i) => Number.parseInt(PRIMARY.slice(i, i + 2), 16));
      let inside = 0;
      const outside: string[] = [];
      for (let y = 0; y < info.height; y++) {
        for (let x = 0; x < info.width; x++) {
          const at = (y * info.width + x) * 3;
          const near =
            Math.abs(data[at] - r0) < 24 &&
            Math.abs(data[at + 1] - g0) < 24 &&
            Math.abs(data[at + 2] - b0) < 24;
          if (!near) continue;
          const inSafe = x >= safe.x && x < safe.x + safe.width && y >= safe.y && y < safe.y + safe.height;
          if (inSafe) inside++;
          else if (outside.length < 5) outside.push(`${x},${y}`);
        }
      }
      expect(inside).toBeGreaterThan(2000);
      expect(outside).toEqual([]);
    }
  });

  it("puts the logo in the safe area's top-left corner, on the scenes and the end card", async () => {
    const logo = video.layout?.logo;
    expect(logo).toBeTruthy();
    if (!logo) return;
    const reference = await sharp(await buffer(await getMediaStorage().read("test/logo.png")))
      .resize(logo.width, logo.height, { fit: "fill" })
      .removeAlpha()
      .raw()
      .toBuffer();
    for (const seconds of [0.3, (video.durationSeconds ?? 1) - 0.5]) {
      const frame = sharp(await frameAt(video.file, seconds)).removeAlpha();
      const crop = await frame
        .clone()
        .extract({ left: logo.x, top: logo.y, width: logo.width, height: logo.height })
        .raw()
        .toBuffer();
      let diff = 0;
      for (let i = 0; i < crop.length; i++) diff += Math.abs(crop[i] - reference[i]);
      expect(diff / crop.length, `logo at ${seconds}s`).toBeLessThan(20);
    }
  });

  it("stores a WebVTT sidecar with the phrases and their times", async () => {
    const vtt = fs.readFileSync(path.join(dataDir, "media", String(video.captionsKey)), "utf8");
    expect(vtt.startsWith("WEBVTT")).toBe(true);
    expect(vtt.split("\n\n")[0]).toBe("WEBVTT\nKind: captions\nLanguage: en");
    expect(vtt).toContain("00:00:00.000 --> ");
    expect(vtt.replace(/\s+/g, " ")).toContain("Visit our corner");
  });

  if (aspectRatio === "9:16") {
    it("speaks, and ducks the music by at least 10 dB under the voice, audible between phrases", async () => {
      expect(video.voice).toBe("espeak-ng:en");
      expect(await meanVolume(video.file, 0, video.spoken?.at(-1)?.end ?? 1)).toBeGreaterThan(-35);
      const spoken = video.spoken ?? [];
      // The music is a 13 kHz tone; the voice (22 kHz espeak) has nothing above 11 kHz.
      const tone = "highpass=f=12000,highpass=f=12000";
      // A pause after a sentence (a phrase cut inside one runs on after a breath).
      const gap = spoken.findIndex(
        (phrase, index) => spoken[index + 1] && spoken[index + 1].start - phrase.end > 0.5,
      );
      expect(gap).toBeGreaterThanOrEqual(0);
      const under = await meanVolume(
        video.file,
        spoken[gap + 1].start + 0.2,
        spoken[gap + 1].end - 0.2,
        tone,
      );
      const between = await meanVolume(
        video.file,
        spoken[gap].end + 0.15,
        spoken[gap + 1].start - 0.15,
        tone,
      );
      expect(between).toBeGreaterThan(-45);
      expect(between - under).toBeGreaterThanOrEqual(10);
      // The looped music is cut to the video: the audio ends with the picture.
      const { stdout } = await run("ffprobe", [
        "-v",
        "error",
        "-show_entries",
        "stream=codec_type,duration",
        "-of",
        "csv=p=0",
        video.file,
      ]);
      const [videoLength, audioLength] = ["video", "audio"].map((type) =>
        Number(
          stdout
            .split("\n")
            .find((line) => line.startsWith(type))
            ?.split(",")[1],
        ),
      );
      expect(Math.abs(videoLength - audioLength)).toBeLessThan(0.1);
      expect(videoLength).toBeCloseTo(video.durationSeconds, 0);
    });
  }
});

describe("the voice", () => {
  const withEnv = async <T>(env: Record<string, string | undefined>, work: () => Promise<T>) => {
    const before = Object.fromEntries(Object.keys(env).map((name) => [name, process.env[name]]));
    Object.assign(process.env, env);
    for (const [name, value] of Object.entries(env)) if (value === undefined) delete process.env[name];
    try {
      return await work();
    } finally {
      for (const [name, value] of Object.entries(before)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  };

  it("speaks with eSpeak NG compiled to WebAssembly where espeak-ng is not on PATH; no images: brand gradients", async () => {
    // A PATH with ffmpeg only: no espeak-ng.
    const bin = fs.mkdtempSync(path.join(dataDir, "bin-"));
    fs.symlinkSync((await run("which", ["ffmpeg"])).stdout.trim(), path.join(bin, "ffmpeg"));
    const video = await withEnv({ PATH: bin, FFMPEG_PATH: undefined, OPENAI_API_KEY: undefined }, () =>
      render("1:1", { images: [] }),
    );
    expect(video.voice).toBe("espeak-wasm:en");
    expect(video.warnings).toEqual([]);
    const spoken = video.spoken ?? [];
    expect(await meanVolume(video.file, spoken[0].start, spoken[0].end)).toBeGreaterThan(-35);
    // The background is a gradient in the brand's colours, not a flat fill.
    const { data, info } = await sharp(await frameAt(video.file, 0.2))
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const pixel = (x: number, y: number) =>
      Array.from(data.subarray((y * info.width + x) * 3, (y * info.width + x) * 3 + 3));
    const [a, b] = [
      pixel(info.width - 5, info.height - 5),
      pixel(info.width - 5, Math.round(info.height * 0.4)),
    ];
    expect(Math.abs(a[0] - b[0]) + Math.abs(a[1] - b[1]) + Math.abs(a[2] - b[2])).toBeGreaterThan(30);
  });

  it("succeeds without a voice, with a warning that says why, when no engine may speak (TTS_ENGINES=none)", async () => {
    const video = await withEnv({ TTS_ENGINES: "none" }, () => render("1:1", { captions: false }));
    expect(video.voice).toBeNull();
    expect(video.warnings?.join(" ")).toMatch(/has no voice: no speech engine is available/);
    expect(await meanVolume(video.file, 0, video.durationSeconds)).toBeLessThan(-80);
    // captions: false leaves the picture without them (no caption-box pixel), the sidecar still follows
    // the phrases (timed by reading speed).
    const spoken = video.spoken ?? [];
    const { data } = await sharp(await frameAt(video.file, (spoken[0].start + spoken[0].end) / 2))
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    let boxPixels = 0;
    for (let at = 0; at < data.length; at += 3) {
      if (
        Math.abs(data[at] - 0x1e) < 24 &&
        Math.abs(data[at + 1] - 0x3a) < 24 &&
        Math.abs(data[at + 2] - 0x8a) < 24
      )
        boxPixels++;
    }
    expect(boxPixels).toBe(0);
    expect(fs.readFileSync(path.join(dataDir, "media", String(video.captionsKey)), "utf8")).toContain(
      "Visit our",
    );
  });

  it("speaks through OpenAI's speech endpoint with the brand's voice when OPENAI_API_KEY is set", async () => {
    fake.reset();
    const video = await withEnv({ OPENAI_API_KEY: "sk-test-speech", OPENAI_BASE_URL: fake.url }, () =>
      render("16:9", { images: ["test/photo-a.jpg"], ttsVoice: "nova" }),
    );
    expect(video.voice).toBe("openai:nova");
    const requests = fake.speechRequests();
    expect(requests.length).toBe(video.cues?.length);
    expect(requests[0].body).toMatchObject({
      model: "gpt-4o-mini-tts",
      voice: "nova",
      response_format: "wav",
      speed: 1,
    });
    expect(requests.map((request) => request.body.input)).toEqual(video.cues?.map((cue) => cue.text));
    // The fake speaks 0.3 s a word: the phrase lasts exactly what its audio does.
    const words = video.cues?.[0].text.split(" ").length ?? 0;
    const spoken = video.spoken?.[0] ?? { start: 0, end: 0 };
    expect(spoken.end - spoken.start).toBeCloseTo(words * 0.3, 2);
    expect(await meanVolume(video.file, spoken.start + 0.1, spoken.end - 0.1)).toBeGreaterThan(-30);
  });
});
