import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseRange } from "@/lib/media/serve-media";
import { getMediaStorage } from "@/lib/media/storage";
import { END_CARD_SECONDS } from "@/lib/video/local/branded-render";
import { localVideoProvider, paceFromBrief } from "@/lib/video/local/local-provider";
import { splitIntoScenes, wrapLines } from "@/lib/video/local/scenes";
import { buildAudioTrack, pcmSeconds, readWav } from "@/lib/video/local/speech";
import { scriptFromCaption } from "@/lib/video/script";
import { ffmpegPidsFor, ffprobe, isAlive, topLevelBoxes, waitFor } from "./support/video-media";

const BRAND = {
  name: "Northwind Coffee",
  language: "en",
  primaryColor: "#3B2F2F",
  secondaryColor: "#E0A458",
  avatarFramesKey: null,
};

describe("script to scenes", () => {
  it("packs whole sentences into scenes of at most the limit, cutting only an over-long sentence", () => {
    const script =
      "Fresh beans every morning. Roasted in small batches by people who care. " +
      "Come in and say hi! " +
      "This sentence is deliberately far too long to fit into one scene because it keeps going and going without a single full stop in sight.";
    const scenes = splitIntoScenes(script, 60);
    expect(scenes.every((scene) => scene.length <= 60)).toBe(true);
    expect(scenes[0]).toBe("Fresh beans every morning.");
    expect(scenes[1]).toBe("Roasted in small batches by people who care.");
    expect(scenes[2]).toBe("Come in and say hi!");
    expect(scenes.length).toBeGreaterThan(4);
    expect(scenes.join(" ").replace(/\s+/g, " ")).toBe(script.replace(/\s+/g, " "));
  });

  it("word-wraps a scene into lines of at most the width, cutting a word longer than a line", () => {
    const lines = wrapLines(
      "Roasted in small batches by people who care about supercalifragilistic coffee",
      14,
    );
    expect(lines.every((line) => line.length <= 14)).toBe(true);
    expect(lines.join(" ").replace(/\s+/g, "")).toBe(
      "Roastedinsmallbatchesbypeoplewhocareaboutsupercalifragilisticcoffee",
    );
  });

  it.each([
    ["a carousel line", "New blend is here.\nSwipe through to see more.", "New blend is here."],
    [
      "swipe inside a line",
      "Our autumn blend is back. Swipe left for the menu!",
      "Our autumn blend is back.",
    ],
    ["the link in bio", "Tap the link in our bio to order.\nSee you soon.", "See you soon."],
    ["link in bio, any wording", "Order now: link in bio.\nIt tastes of cherry.", "It tastes of cherry."],
    [
      "a bare link",
      "Read the full story here: https://example.com/story\nWe roast daily.",
      "Read the full story here:\nWe roast daily.",
    ],
    ["click", "Click below to book a table. Open at seven.", "Open at seven."],
    ["the first comment", "Details in the first comment. Made by hand.", "Made by hand."],
    ["slides", "Flip through the slides for the details. Built for teams.", "Built for teams."],
    [
      "a hashtag-only line",
      "Fresh beans every morning.\n\n#NorthwindCoffee #Coffee",
      "Fresh beans every morning.",
    ],
    [
      "an emoji-only line",
      "Fresh beans every morning.\n☕️✨\nCome say hi.",
      "Fresh beans every morning.\nCome say hi.",
    ],
    [
      "list markers",
      "What you get:\n→ Beans roasted daily\n• Free refills",
      "What you get:\nBeans roasted daily\nFree refills",
    ],
    ["a mention", "Thanks to @roastery_friends for the beans. Enjoy.", "Enjoy."],
    ["double tap", "Double-tap if you agree. Coffee first.", "Coffee first."],
    [
      "keeps ordinary lines",
      "Come in, say hi, and taste the difference. We open at seven.",
      "Come in, say hi, and taste the difference. We open at seven.",
    ],
    [
      "keeps words that only look alike",
      "Our linked farms grow tapioca too.",
      "Our linked farms grow tapioca too.",
    ],
  ])("builds a spoken script from a caption: drops %s", (_, caption, script) => {
    expect(scriptFromCaption(caption)).toBe(script);
  });

  it("takes hashtags, links and emoji out of a caption", () => {
    expect(
      scriptFromCaption(
        "Morning ☕️ rush? We've got you. https://example.com/menu\n\n#NorthwindCoffee #Coffee",
      ),
    ).toBe("Morning rush? We've got you.");
  });

  it("reads the pace from the brief", () => {
    expect(paceFromBrief("short and snappy").wordsPerMinute).toBeGreaterThan(
      paceFromBrief(null).wordsPerMinute,
    );
    expect(paceFromBrief("slow and calm").wordsPerMinute).toBeLessThan(paceFromBrief(null).wordsPerMinute);
  });
});

describe("audio track", () => {
  it("lays clips end to end and pads each to its slot with silence", () => {
    const format = { sampleRate: 8000, channels: 1, bitsPerSample: 16 };
    const clip = { ...format, data: Buffer.alloc(8000 * 2 * 0.5, 7) };
    const track = readWav(
      buildAudioTrack(format, [
        { clip, seconds: 1 },
        { clip: null, seconds: 0.25 },
        { clip, seconds: 0.75 },
      ]),
    );
    expect(pcmSeconds(track)).toBeCloseTo(2, 5);
    expect(track.data[0]).toBe(7);
    expect(track.data[8000 * 2 * 0.5]).toBe(0);
    expect(track.data[8000 * 2 * 1.25]).toBe(7);
  });
});

describe("Range header", () => {
  it("reads one byte range, open ranges and suffixes, and ignores what it does not read", () => {
    expect(parseRange("bytes=0-99", 1000)).toEqual({ start: 0, end: 99 });
    expect(parseRange("bytes=900-", 1000)).toEqual({ start: 900, end: 999 });
    expect(parseRange("bytes=990-2000", 1000)).toEqual({ start: 990, end: 999 });
    expect(parseRange("bytes=-100", 1000)).toEqual({ start: 900, end: 999 });
    expect(parseRange("bytes=1000-", 1000)).toBe("unsatisfiable");
    expect(parseRange("bytes=-0", 1000)).toBe("unsatisfiable");
    expect(parseRange("bytes=0-1,5-6", 1000)).toBeNull();
    expect(parseRange("bytes=9-3", 1000)).toBeNull();
    expect(parseRange("items=0-1", 1000)).toBeNull();
  });
});

describe("the local renderer", () => {
  let dataDir: string;
  const previousDataDir = process.env.DATA_DIR;

  beforeAll(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bs-render-test-"));
    process.env.DATA_DIR = dataDir;
  });
  afterAll(() => {
    process.env.DATA_DIR = previousDataDir;
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /** A plain green 512×512 avatar in media storage, so the frame shows where it went. */
  async function storeGreenAvatar(brandId: string) {
    const avatarKey = `avatars/${brandId}/frame.png`;
    const avatar = await sharp({
      create: { width: 512, height: 512, channels: 4, background: { r: 0, g: 200, b: 0, alpha: 1 } },
    })
      .png()
      .toBuffer();
    await getMediaStorage().put(avatarKey, avatar);
    return avatarKey;
  }

  it("is healthy when ffmpeg runs", async () => {
    expect(await localVideoProvider.checkHealth()).toEqual({ ok: true });
  });

  it("renders a 720p H.264/AAC MP4 with +faststart whose length is the phrases' total and the end card, and a JPEG poster", async () => {
    const progress: number[] = [];
    const result = await localVideoProvider.render(
      {
        jobId: "vjb_rendertest0001",
        attempt: 1,
        mode: "regular",
        aspectRatio: "16:9",
        brief: null,
        script:
          "Fresh beans, roasted every single morning in our own café. Come in, say hi, and taste the difference. We open at seven.",
        brand: BRAND,
      },
      { signal: new AbortController().signal, onProgress: (percent) => progress.push(percent) },
    );
    const file = path.join(dataDir, "media", result.videoKey);
    const probe = await ffprobe(file);
    const video = probe.streams.find((stream) => stream.codec_type === "video");
    const audio = probe.streams.find((stream) => stream.codec_type === "audio");
    expect(video).toMatchObject({ codec_name: "h264", width: 1280, height: 720 });
    expect(audio?.codec_name).toBe("aac");
    const sceneTotal = result.scenes.reduce((sum, scene) => sum + scene.seconds, 0);
    expect(result.scenes.length).toBeGreaterThanOrEqual(2);
    // The phrases end to end, then the end card (from the next whole frame).
    expect(Number(probe.format.duration)).toBeCloseTo(Math.ceil(sceneTotal * 25) / 25 + END_CARD_SECONDS, 0);
    // The length the job records is the file's own (what a player shows), not the plan's.
    expect(result.durationSeconds).toBeCloseTo(Number(probe.format.duration), 4);

    const boxes = topLevelBoxes(fs.readFileSync(file));
    expect(boxes.indexOf("moov")).toBeGreaterThan(-1);
    expect(boxes.indexOf("moov")).toBeLessThan(boxes.indexOf("mdat"));

    const poster = fs.readFileSync(path.join(dataDir, "media", result.posterKey));
    expect(poster.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    expect((await sharp(poster).metadata()).width).toBe(1280);

    expect(progress.length).toBeGreaterThan(3);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(progress.at(-1)).toBeGreaterThanOrEqual(95);
  });

  it("puts the avatar in the frame in avatar mode", async () => {
    const avatarKey = await storeGreenAvatar("brd_rendertest");

    const result = await localVideoProvider.render(
      {
        jobId: "vjb_rendertest0002",
        attempt: 1,
        mode: "avatar",
        aspectRatio: "16:9",
        brief: "short",
        script: "Say hello to our new seasonal blend, roasted this morning.",
        brand: { ...BRAND, avatarFramesKey: avatarKey },
      },
      { signal: new AbortController().signal, onProgress: () => {} },
    );
    // The poster shows the avatar's green on the right, where the regular layout has only background.
    const { data, info } = await sharp(path.join(dataDir, "media", result.posterKey))
      .raw()
      .toBuffer({ resolveWithObject: true });
    const pixel = (x: number, y: number) => {
      const offset = (y * info.width + x) * info.channels;
      return [data[offset], data[offset + 1], data[offset + 2]];
    };
    const [r, g, b] = pixel(info.width - 70 - 220, info.height / 2);
    expect(g).toBeGreaterThan(150);
    expect(r).toBeLessThan(80);
    expect(b).toBeLessThan(80);
  });

  it.each([
    ["9:16", 720, 1280],
    ["1:1", 720, 720],
    ["4:5", 720, 900],
  ] as const)(
    "renders a %s video at %i×%i, with the poster in the same shape",
    async (aspectRatio, width, height) => {
      const result = await localVideoProvider.render(
        {
          jobId: `vjb_rendershape${aspectRatio.replace(":", "x")}`,
          attempt: 1,
          mode: "regular",
          aspectRatio,
          brief: "short",
          script: "Fresh beans, roasted every single morning. Come in and taste the difference.",
          brand: BRAND,
        },
        { signal: new AbortController().signal, onProgress: () => {} },
      );
      const probe = await ffprobe(path.join(dataDir, "media", result.videoKey));
      expect(probe.streams.find((stream) => stream.codec_type === "video")).toMatchObject({
        codec_name: "h264",
        width,
        height,
      });
      const poster = await sharp(path.join(dataDir, "media", result.posterKey)).metadata();
      expect([poster.width, poster.height]).toEqual([width, height]);
    },
  );

  it("puts the avatar under the text in a 9:16 frame", async () => {
    const avatarKey = await storeGreenAvatar("brd_rendertest916");
    const result = await localVideoProvider.render(
      {
        jobId: "vjb_rendertest0004",
        attempt: 1,
        mode: "avatar",
        aspectRatio: "9:16",
        brief: "short",
        script: "Say hello to our new seasonal blend, roasted this morning.",
        brand: { ...BRAND, avatarFramesKey: avatarKey },
      },
      { signal: new AbortController().signal, onProgress: () => {} },
    );
    const { data, info } = await sharp(path.join(dataDir, "media", result.posterKey))
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([720, 1280]);
    const green = (x: number, y: number) => {
      const offset = (y * info.width + x) * info.channels;
      return data[offset + 1] > 150 && data[offset] < 80 && data[offset + 2] < 80;
    };
    // Lower middle: the avatar; upper middle: the brand's background behind the text.
    expect(green(360, 1000)).toBe(true);
    expect(green(360, 300)).toBe(false);
  });

  it("stops ffmpeg at once when the signal aborts, and leaves no file behind", async () => {
    const controller = new AbortController();
    const jobId = "vjb_rendertest0003";
    const rendering = localVideoProvider.render(
      {
        jobId,
        attempt: 1,
        mode: "regular",
        aspectRatio: "16:9",
        brief: "slow and calm",
        script: Array.from(
          { length: 12 },
          (_, i) => `This is the calm and unhurried scene number ${i + 1}.`,
        ).join(" "),
        brand: BRAND,
      },
      {
        signal: controller.signal,
        onProgress: () => {},
      },
    );
    const [pid] = await waitFor(() => ffmpegPidsFor(jobId).length > 0 && ffmpegPidsFor(jobId), {
      what: "ffmpeg to start",
      intervalMs: 50,
    });
    controller.abort(new Error("canceled by the test"));
    await expect(rendering).rejects.toThrow("canceled by the test");
    await waitFor(() => !isAlive(pid), { timeoutMs: 3000, what: `ffmpeg ${pid} to exit` });
    expect(fs.existsSync(path.join(dataDir, "media", "videos", jobId))).toBe(false);
  });
});
