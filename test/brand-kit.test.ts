import { execFile } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import postgres from "postgres";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { brandPreviewResponse, brandResponse } from "@/lib/contracts/brands";
import { mediaFormatFor, post as postSchema } from "@/lib/contracts/posts";
import { newUser } from "./support/auth";
import { type FakeOpenAI, startFakeOpenAI } from "./support/fake-openai";
import { api, baseUrl } from "./support/http";
import { makeImage } from "./support/images";
import { startTestServer, type TestServer } from "./support/test-server";
import { videoClient } from "./support/video-api";

const run = promisify(execFile);
const onPostgres = Boolean(process.env.DATABASE_URL);

let token: string;
const call = (urlPath: string, init: Parameters<typeof api>[1] = {}) => api(urlPath, { token, ...init });

beforeAll(async () => {
  ({ token } = await newUser(baseUrl()));
});

async function newBrand(fields: Record<string, unknown> = {}, as = call) {
  const response = await as("/api/brands", {
    method: "POST",
    json: { name: "Kit Brand", tone: "warm", voice: "plain and short", ...fields },
  });
  expect(response.status, response.text).toBe(201);
  return brandResponse.parse(response.body);
}

function upload(urlPath: string, bytes: Buffer, name: string, type: string, as = call) {
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(bytes)], { type }), name);
  return as(urlPath, { method: "POST", body: form });
}

async function fetchBytes(url: string, server = baseUrl()) {
  const response = await fetch(new URL(url, server));
  return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()) };
}

/** The RGB of one pixel of an image. */
async function pixel(bytes: Buffer, x: number, y: number) {
  const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * info.channels;
  return [data[at], data[at + 1], data[at + 2]];
}

const near = (rgb: number[], hex: string, tolerance = 40) => {
  const target = [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));
  return rgb.every((value, i) => Math.abs(value - target[i]) <= tolerance);
};

const square = (color: string, size = 200) =>
  sharp({ create: { width: size, height: size, channels: 4, background: color } })
    .png()
    .toBuffer();

/** An audio file made by ffmpeg: a tone of `seconds`, in the container the extension names. */
async function tone(extension: "wav" | "mp3" | "m4a", seconds = 2) {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "kit-tone-")), `tone.${extension}`);
  await run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", `sine=frequency=330:duration=${seconds}`, file]);
  return fs.readFileSync(file);
}

describe("brand kit: fields", () => {
  it("sets colours, font and voice, and refuses values outside the lists", async () => {
    const brand = await newBrand();
    expect(brand).toMatchObject({ font: "sans", ttsVoice: null, logoUrl: null, musicUrl: null });
    const patched = await call(`/api/brands/${brand.brandId}`, {
      method: "PATCH",
      json: { primaryColor: "#112233", secondaryColor: "#ffcc00", font: "serif", ttsVoice: "nova" },
    });
    expect(patched.status, patched.text).toBe(200);
    expect(brandResponse.parse(patched.body)).toMatchObject({
      primaryColor: "#112233",
      secondaryColor: "#FFCC00",
      font: "serif",
      ttsVoice: "nova",
    });
    const badFont = await call(`/api/brands/${brand.brandId}`, { method: "PATCH", json: { font: "comic" } });
    expect(badFont.status).toBe(400);
    expect(badFont.body.error.code).toBe("invalid_request");
    expect(badFont.body.error.details[0].path).toBe("font");
    const badVoice = await call(`/api/brands/${brand.brandId}`, {
      method: "PATCH",
      json: { ttsVoice: "robot" },
    });
    expect(badVoice.status).toBe(400);
    expect(badVoice.body.error.details[0].path).toBe("ttsVoice");
  });
});

describe("brand kit: logo", () => {
  it("stores a PNG as a PNG, replaces it, and deletes it", async () => {
    const brand = await newBrand();
    const first = await upload(
      `/api/brands/${brand.brandId}/logo`,
      await square("#00C040"),
      "logo.png",
      "image/png",
    );
    expect(first.status, first.text).toBe(200);
    const { logoUrl } = brandResponse.parse(first.body);
    expect(logoUrl).toMatch(/^\/media\/brands\/brd_[\w-]+\/logo\/[\w-]+\.png\?exp=\d+&sig=/);
    const stored = await fetchBytes(logoUrl as string);
    expect(stored.status).toBe(200);
    expect(await sharp(stored.bytes).metadata()).toMatchObject({ format: "png", width: 200, height: 200 });

    const jpeg = await makeImage({ format: "jpeg", width: 640, height: 320 });
    const second = await upload(`/api/brands/${brand.brandId}/logo`, jpeg, "logo.jpg", "image/jpeg");
    expect(second.status, second.text).toBe(200);
    const replaced = brandResponse.parse(second.body).logoUrl as string;
    expect(await sharp((await fetchBytes(replaced)).bytes).metadata()).toMatchObject({
      format: "png",
      width: 640,
    });
    // The old file is gone.
    expect((await fetchBytes(logoUrl as string)).status).toBe(404);

    const removed = await call(`/api/brands/${brand.brandId}/logo`, { method: "DELETE" });
    expect(removed.status).toBe(200);
    expect(brandResponse.parse(removed.body).logoUrl).toBeNull();
    expect((await fetchBytes(replaced)).status).toBe(404);
  });

  it("rasterises an SVG sharply to 1024 px on its longer side", async () => {
    const brand = await newBrand();
    const svg = Buffer.from(
      `<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="120" height="60" viewBox="0 0 120 60">
        <rect width="120" height="60" fill="#D02090"/><circle cx="30" cy="30" r="20" fill="#FFFFFF"/></svg>`,
    );
    const response = await upload(`/api/brands/${brand.brandId}/logo`, svg, "logo.svg", "image/svg+xml");
    expect(response.status, response.text).toBe(200);
    const png = (await fetchBytes(brandResponse.parse(response.body).logoUrl as string)).bytes;
    expect(await sharp(png).metadata()).toMatchObject({ format: "png", width: 1024, height: 512 });
    expect(near(await pixel(png, 900, 256), "#D02090", 6)).toBe(true);
    // The circle's centre (30,30 of 120×60) is drawn, not blurred from a 120 px bitmap.
    expect(near(await pixel(png, 256, 256), "#FFFFFF", 6)).toBe(true);
  });

  it("refuses other types, damaged files, too many pixels and too many bytes with clear errors", async () => {
    const brand = await newBrand();
    const logo = (bytes: Buffer, name: string, type: string) =>
      upload(`/api/brands/${brand.brandId}/logo`, bytes, name, type);

    const gif = await logo(Buffer.from("GIF89a\x01\x00\x01\x00\x00\x00\x00;"), "logo.gif", "image/gif");
    expect(gif.status).toBe(400);
    expect(gif.body.error).toMatchObject({ code: "invalid_request", details: [{ path: "file" }] });
    expect(gif.body.error.message).toMatch(/not a PNG, JPEG or SVG/);

    const png = await square("#123456", 300);
    const damaged = await logo(png.subarray(0, Math.floor(png.length / 2)), "logo.png", "image/png");
    expect(damaged.status).toBe(400);
    expect(damaged.body.error.message).toMatch(/damaged or incomplete/);

    const huge = await sharp({ create: { width: 4100, height: 4100, channels: 3, background: "#000" } })
      .png()
      .toBuffer();
    const tooManyPixels = await logo(huge, "logo.png", "image/png");
    expect(tooManyPixels.status).toBe(400);
    expect(tooManyPixels.body.error.message).toMatch(/4100×4100 pixels/);

    const tooLarge = await logo(Buffer.alloc(2 * 1024 * 1024 + 10, 1), "logo.png", "image/png");
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body.error.code).toBe("payload_too_large");

    const notMultipart = await call(`/api/brands/${brand.brandId}/logo`, {
      method: "POST",
      json: { file: "x" },
    });
    expect(notMultipart.status).toBe(400);
    expect(notMultipart.body.error.code).toBe("invalid_request");
    // Nothing was stored by any of them.
    expect(brandResponse.parse((await call(`/api/brands/${brand.brandId}`)).body).logoUrl).toBeNull();
  });
});

describe("brand kit: music", () => {
  it("accepts WAV, MP3 and AAC checked by ffprobe, and deletes", async () => {
    const brand = await newBrand();
    for (const extension of ["wav", "mp3", "m4a"] as const) {
      const response = await upload(
        `/api/brands/${brand.brandId}/music`,
        await tone(extension),
        `bed.${extension}`,
        "application/octet-stream",
      );
      expect(response.status, `${extension}: ${response.text}`).toBe(200);
      const url = brandResponse.parse(response.body).musicUrl as string;
      expect(url).toMatch(new RegExp(`/music/[\\w-]+\\.${extension}\\?`));
      const media = await fetch(new URL(url, baseUrl()));
      expect(media.status).toBe(200);
      expect(media.headers.get("content-type")).toMatch(/^audio\//);
    }
    const removed = await call(`/api/brands/${brand.brandId}/music`, { method: "DELETE" });
    expect(brandResponse.parse(removed.body).musicUrl).toBeNull();
  });

  it("refuses a playlist before ffmpeg reads it: no file it names is opened, no URL fetched (issue 39, item 16)", async () => {
    const brand = await newBrand();
    const requests: string[] = [];
    const listener = http.createServer((req, res) => {
      requests.push(req.url ?? "");
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
    const port = (listener.address() as AddressInfo).port;
    // A segment ffmpeg would open as a local file: a named pipe. Opening it for writing completes only
    // when a reader opens it, so `opened` tells whether anything read the playlist's first segment.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bs-music-hls-"));
    const segment = path.join(dir, "segment.ts");
    await run("mkfifo", [segment]);
    let opened = false;
    const writer = fs.promises.open(segment, "w").then(async (handle) => {
      opened = true;
      await handle.close();
    });
    try {
      const playlist = [
        "#EXTM3U",
        "#EXT-X-TARGETDURATION:10",
        "#EXTINF:10,",
        segment,
        "#EXTINF:10,",
        `http://127.0.0.1:${port}/segment-2.ts`,
        "#EXT-X-ENDLIST",
        "",
      ].join("\n");
      const response = await upload(
        `/api/brands/${brand.brandId}/music`,
        Buffer.from(playlist),
        "bed.mp3",
        "audio/mpeg",
      );
      expect(response.status, response.text).toBe(400);
      expect(response.body.error).toMatchObject({ code: "invalid_request", details: [{ path: "file" }] });
      expect(response.headers.get("x-request-id")).toBeTruthy();
      expect(opened).toBe(false);
      expect(requests).toEqual([]);
    } finally {
      // Let the pending open finish (a reader of our own), then clean up.
      const reader = await fs.promises.open(segment, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
      await writer;
      await reader.close();
      fs.rmSync(dir, { recursive: true, force: true });
      await new Promise<void>((resolve) => listener.close(() => resolve()));
    }
  });

  it("refuses a corrupt track, an image and a file over 20 MB", async () => {
    const brand = await newBrand();
    const music = (bytes: Buffer, name: string) =>
      upload(`/api/brands/${brand.brandId}/music`, bytes, name, "audio/mpeg");
    const mp3 = await tone("mp3");
    // Random bytes behind an ID3 tag: something that claims to be an MP3 and is not.
    const corrupt = Buffer.concat([
      mp3.subarray(0, 10),
      Buffer.from(Array.from({ length: 40_000 }, (_, i) => (i * 7919) % 251)),
    ]);
    for (const [bytes, name] of [
      [corrupt, "bed.mp3"],
      [await square("#FF0000"), "bed.mp3"],
      [Buffer.from("just some text, not audio at all"), "bed.wav"],
    ] as const) {
      const response = await music(bytes, name);
      expect(response.status, name).toBe(400);
      expect(response.body.error).toMatchObject({ code: "invalid_request", details: [{ path: "file" }] });
      expect(response.body.error.message).toMatch(/not an MP3, AAC or WAV track/);
    }
    const tooLarge = await music(Buffer.alloc(20 * 1024 * 1024 + 1), "bed.mp3");
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body.error.code).toBe("payload_too_large");
    expect(brandResponse.parse((await call(`/api/brands/${brand.brandId}`)).body).musicUrl).toBeNull();
  });
});

describe("brand kit: preview frame", () => {
  it("draws a real frame with the logo in the safe corner and the colours being tried", async () => {
    const brand = await newBrand({ primaryColor: "#1F2937" });
    await upload(`/api/brands/${brand.brandId}/logo`, await square("#00C040"), "logo.png", "image/png");
    const saved = await call(`/api/brands/${brand.brandId}/preview`);
    expect(saved.status, saved.text).toBe(200);
    const frame = brandPreviewResponse.parse(saved.body);
    expect(frame).toMatchObject({ width: 720, height: 1280, aspectRatio: "9:16" });
    const jpeg = Buffer.from(frame.imageUrl.replace(/^data:image\/jpeg;base64,/, ""), "base64");
    expect(await sharp(jpeg).metadata()).toMatchObject({ format: "jpeg", width: 720, height: 1280 });
    // 9:16 safe area starts at (44, 154); the logo is 72 px high there.
    expect(near(await pixel(jpeg, 80, 190), "#00C040")).toBe(true);
    expect(near(await pixel(jpeg, 20, 190), "#00C040")).toBe(false);

    // Trying a red primary: the caption box (in the primary colour) turns red; nothing is saved.
    const red = await call(
      `/api/brands/${brand.brandId}/preview?aspectRatio=16:9&primaryColor=%23E00000&font=display`,
    );
    expect(red.status, red.text).toBe(200);
    const redFrame = brandPreviewResponse.parse(red.body);
    expect(redFrame).toMatchObject({ width: 1280, height: 720, aspectRatio: "16:9" });
    const redJpeg = Buffer.from(redFrame.imageUrl.split(",")[1], "base64");
    const { data } = await sharp(redJpeg).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    let redPixels = 0;
    for (let i = 0; i < data.length; i += 3)
      if (data[i] > 180 && data[i + 1] < 60 && data[i + 2] < 60) redPixels++;
    expect(redPixels).toBeGreaterThan(5000);
    expect(brandResponse.parse((await call(`/api/brands/${brand.brandId}`)).body).primaryColor).toBe(
      "#1F2937",
    );

    const bad = await call(`/api/brands/${brand.brandId}/preview?primaryColor=red`);
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].path).toBe("primaryColor");
  });
});

describe("brand kit: another user's brand", () => {
  it("answers 404 for every kit operation", async () => {
    const brand = await newBrand();
    const other = await newUser(baseUrl());
    const as = (urlPath: string, init: Parameters<typeof api>[1] = {}) =>
      api(urlPath, { token: other.token, ...init });
    const png = await square("#00C040");
    for (const response of [
      await upload(`/api/brands/${brand.brandId}/logo`, png, "logo.png", "image/png", as),
      await as(`/api/brands/${brand.brandId}/logo`, { method: "DELETE" }),
      await upload(`/api/brands/${brand.brandId}/music`, await tone("wav"), "bed.wav", "audio/wav", as),
      await as(`/api/brands/${brand.brandId}/music`, { method: "DELETE" }),
      await as(`/api/brands/${brand.brandId}/preview`),
      await as(`/api/brands/${brand.brandId}`, { method: "PATCH", json: { font: "display" } }),
    ]) {
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe("not_found");
    }
  });
});

/** A post whose media plan is exactly these items (the local model picks its own plan). */
async function postWithItems(
  brandId: string,
  items: { type: "image" | "video"; aspectRatio: "1:1" | "4:5" | "9:16" | "16:9"; overlayText?: string }[],
  as = call,
) {
  const created = await as("/api/content/create", {
    method: "POST",
    json: {
      brandId,
      channel: "instagram",
      topic: "our new seasonal autumn blend arrives this week",
      goal: "awareness",
    },
  });
  expect(created.status, created.text).toBe(201);
  const plan = items.map((item, index) => ({
    description: `Picture ${index + 1}: the autumn blend on the counter`,
    altText: `Picture ${index + 1}`,
    ...item,
  }));
  const patched = await as(`/api/posts/${created.body.postId}`, {
    method: "PATCH",
    json: { mediaPlan: { format: mediaFormatFor(plan), items: plan } },
  });
  expect(patched.status, patched.text).toBe(200);
  return postSchema.parse(patched.body);
}

describe("media-plan images without an image model", () => {
  it("draws branded cards, replaces them with uploads, keeps them through edits and deletes them", async () => {
    const brand = await newBrand({ primaryColor: "#0B3D91", secondaryColor: "#FC3D21", font: "display" });
    const post = await postWithItems(brand.brandId, [
      { type: "image", aspectRatio: "4:5", overlayText: "Autumn is here" },
      { type: "image", aspectRatio: "16:9" },
      { type: "video", aspectRatio: "9:16" },
    ]);
    const base = `/api/posts/${post.postId}/media`;

    const generated = await call(`${base}/0/image/generate`, { method: "POST" });
    expect(generated.status, generated.text).toBe(200);
    const first = postSchema.parse(generated.body).mediaPlan.items[0].imageUrl as string;
    expect(first).toMatch(/^\/media\/posts\/pst_[\w-]+\/media\/[\w-]+\.jpg\?exp=/);
    const card = (await fetchBytes(first)).bytes;
    expect(await sharp(card).metadata()).toMatchObject({ format: "jpeg", width: 864, height: 1080 });
    // The brand gradient: the primary colour at the top left, towards the secondary at the bottom right.
    expect(near(await pixel(card, 10, 10), "#0B3D91", 30)).toBe(true);

    const wide = await call(`${base}/1/image/generate`, { method: "POST" });
    const wideUrl = postSchema.parse(wide.body).mediaPlan.items[1].imageUrl as string;
    expect(await sharp((await fetchBytes(wideUrl)).bytes).metadata()).toMatchObject({
      width: 1080,
      height: 608,
    });

    // Regenerating replaces the file.
    const again = await call(`${base}/0/image/generate`, { method: "POST" });
    const second = postSchema.parse(again.body).mediaPlan.items[0].imageUrl as string;
    expect(new URL(second, baseUrl()).pathname).not.toBe(new URL(first, baseUrl()).pathname);
    expect((await fetchBytes(first)).status).toBe(404);

    // An upload is cover-cropped to the item's shape (never stretched).
    const photo = await makeImage({ format: "jpeg", width: 1200, height: 600 });
    const uploaded = await upload(`${base}/0/image`, photo, "photo.jpg", "image/jpeg");
    expect(uploaded.status, uploaded.text).toBe(200);
    const photoUrl = postSchema.parse(uploaded.body).mediaPlan.items[0].imageUrl as string;
    expect(await sharp((await fetchBytes(photoUrl)).bytes).metadata()).toMatchObject({
      width: 864,
      height: 1080,
    });

    // Sending the plan back keeps the images, also reordered; leaving imageUrl out drops one.
    const current = postSchema.parse((await call(`/api/posts/${post.postId}`)).body);
    const [one, two, video] = current.mediaPlan.items;
    const reordered = await call(`/api/posts/${post.postId}`, {
      method: "PATCH",
      json: { mediaPlan: { format: "carousel", items: [two, one, video] } },
    });
    expect(reordered.status, reordered.text).toBe(200);
    const afterReorder = postSchema.parse(reordered.body).mediaPlan.items;
    expect(new URL(afterReorder[0].imageUrl as string, baseUrl()).pathname).toBe(
      new URL(wideUrl, baseUrl()).pathname,
    );
    expect(new URL(afterReorder[1].imageUrl as string, baseUrl()).pathname).toBe(
      new URL(photoUrl, baseUrl()).pathname,
    );
    const { imageUrl: _dropped, ...withoutImage } = afterReorder[0];
    const dropped = await call(`/api/posts/${post.postId}`, {
      method: "PATCH",
      json: { mediaPlan: { format: "carousel", items: [withoutImage, afterReorder[1], afterReorder[2]] } },
    });
    expect(postSchema.parse(dropped.body).mediaPlan.items[0].imageUrl).toBeNull();
    expect((await fetchBytes(wideUrl)).status).toBe(404);

    // Errors: a video item, an index past the plan or not a number, a damaged upload.
    const onVideo = await call(`${base}/2/image/generate`, { method: "POST" });
    expect(onVideo.status).toBe(400);
    expect(onVideo.body.error.details[0].path).toBe("index");
    expect((await call(`${base}/3/image/generate`, { method: "POST" })).status).toBe(404);
    // A path that names no item (like a malformed id) is 404.
    const notNumber = await call(`${base}/first/image`, { method: "DELETE" });
    expect(notNumber.status).toBe(404);
    expect(notNumber.body.error.code).toBe("not_found");
    const damaged = await upload(`${base}/1/image`, photo.subarray(0, 400), "photo.jpg", "image/jpeg");
    expect(damaged.status).toBe(400);

    const deleted = await call(`${base}/1/image`, { method: "DELETE" });
    expect(deleted.status).toBe(200);
    expect(postSchema.parse(deleted.body).mediaPlan.items[1].imageUrl).toBeNull();
    expect((await fetchBytes(photoUrl)).status).toBe(404);

    // Another user sees nothing.
    const other = await newUser(baseUrl());
    const foreign = await api(`${base}/0/image/generate`, { method: "POST", token: other.token });
    expect(foreign.status).toBe(404);
  });

  it("makes a video whose scenes are the post's images and whose corner has the logo", async () => {
    const videos = videoClient(baseUrl(), token);
    const brand = await newBrand({ primaryColor: "#1F2937", secondaryColor: "#F59E0B" });
    await upload(`/api/brands/${brand.brandId}/logo`, await square("#00C040"), "logo.png", "image/png");
    const post = await postWithItems(brand.brandId, [{ type: "image", aspectRatio: "9:16" }]);
    const magenta = await sharp({ create: { width: 900, height: 1600, channels: 3, background: "#C000C0" } })
      .jpeg()
      .toBuffer();
    const uploaded = await upload(`/api/posts/${post.postId}/media/0/image`, magenta, "m.jpg", "image/jpeg");
    expect(uploaded.status, uploaded.text).toBe(200);
    const created = await videos.createJob({
      brandId: brand.brandId,
      postId: post.postId,
      mode: "regular",
      aspectRatio: "9:16",
      captions: false,
    });
    expect(created.status, created.text).toBe(202);
    const { job } = await videos.pollJob(
      created.body.jobId,
      (current) => current.status === "succeeded" || current.status === "failed",
      180_000,
    );
    expect(job.status, JSON.stringify(job.error)).toBe("succeeded");
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kit-video-"));
    const video = path.join(dir, "video.mp4");
    fs.writeFileSync(video, (await fetchBytes(job.videoUrl as string)).bytes);
    await run("ffmpeg", [
      "-v",
      "error",
      "-ss",
      "1",
      "-i",
      video,
      "-frames:v",
      "1",
      path.join(dir, "frame.png"),
    ]);
    const frame = fs.readFileSync(path.join(dir, "frame.png"));
    expect(await sharp(frame).metadata()).toMatchObject({ width: 720, height: 1280 });
    // The scene is the uploaded picture (magenta across the middle), the logo sits in the safe corner.
    expect(near(await pixel(frame, 360, 700), "#C000C0")).toBe(true);
    expect(near(await pixel(frame, 80, 190), "#00C040")).toBe(true);
  });
});

describe("media-plan images from an image model (fake OpenAI)", () => {
  let fake: FakeOpenAI;
  let server: TestServer;
  let own: string;
  const ownCall = (urlPath: string, init: Parameters<typeof api>[1] = {}) =>
    api(urlPath, { server: server.url, token: own, ...init });

  beforeAll(async () => {
    fake = await startFakeOpenAI();
    server = await startTestServer({
      env: {
        OPENAI_API_KEY: "sk-test-images",
        OPENAI_BASE_URL: fake.url,
        IMAGE_MODEL: "gpt-image-1",
        RATE_LIMIT_IMAGE_PER_MINUTE: "3",
      },
    });
    ({ token: own } = await newUser(server.url));
  });
  afterAll(async () => {
    await server?.stop();
    await fake?.close();
  });

  it("asks the model with the description, the brand colours and the shape, and stores its picture", async () => {
    const created = await ownCall("/api/brands", {
      method: "POST",
      json: {
        name: "Model Brand",
        tone: "warm",
        voice: "plain",
        primaryColor: "#3B2F2F",
        secondaryColor: "#E0A458",
      },
    });
    const post = await postWithItems(created.body.brandId, [{ type: "image", aspectRatio: "4:5" }], ownCall);
    fake.requests.length = 0;
    const generated = await ownCall(`/api/posts/${post.postId}/media/0/image/generate`, { method: "POST" });
    expect(generated.status, generated.text).toBe(200);
    const [request] = fake.imageRequests();
    expect(request.headers.authorization).toBe("Bearer sk-test-images");
    expect(request.body).toMatchObject({ model: "gpt-image-1", size: "1024x1536", n: 1 });
    expect(request.body.prompt).toContain("Picture 1: the autumn blend on the counter");
    expect(request.body.prompt).toContain("#3B2F2F");
    expect(request.body.prompt).toContain("#E0A458");
    const url = postSchema.parse(generated.body).mediaPlan.items[0].imageUrl as string;
    const image = (await fetchBytes(url, server.url)).bytes;
    expect(await sharp(image).metadata()).toMatchObject({ format: "jpeg", width: 864, height: 1080 });
    expect(near(await pixel(image, 400, 500), "#12AB34", 12)).toBe(true);

    // A failing model: 502 generation_failed, and the image it had stays.
    fake.state.image = { kind: "status", status: 500 };
    const failed = await ownCall(`/api/posts/${post.postId}/media/0/image/generate`, { method: "POST" });
    expect(failed.status).toBe(502);
    expect(failed.body.error).toMatchObject({ code: "generation_failed", retryable: true });
    const after = postSchema.parse((await ownCall(`/api/posts/${post.postId}`)).body);
    expect(new URL(after.mediaPlan.items[0].imageUrl as string, server.url).pathname).toBe(
      new URL(url, server.url).pathname,
    );
    fake.reset();
  });

  it("limits image generations per credential a minute (429 rate_limited), before the model is called", async () => {
    const user = await newUser(server.url);
    const as = (urlPath: string, init: Parameters<typeof api>[1] = {}) =>
      api(urlPath, { server: server.url, token: user.token, ...init });
    const brand = await newBrand({}, as);
    const post = await postWithItems(brand.brandId, [{ type: "image", aspectRatio: "1:1" }], as);
    const generate = () => as(`/api/posts/${post.postId}/media/0/image/generate`, { method: "POST" });
    // The window is a fixed minute: start early in one, so all four calls fall in it.
    const secondsLeft = 60 - (Math.floor(Date.now() / 1000) % 60);
    if (secondsLeft < 20) await new Promise((resolve) => setTimeout(resolve, secondsLeft * 1000 + 500));
    fake.requests.length = 0;
    for (const remaining of ["2", "1", "0"]) {
      const allowed = await generate();
      expect(allowed.status, allowed.text).toBe(200);
      expect(allowed.headers.get("x-ratelimit-limit")).toBe("3");
      expect(allowed.headers.get("x-ratelimit-remaining")).toBe(remaining);
    }
    const limited = await generate();
    expect(limited.status).toBe(429);
    expect(limited.body.error).toMatchObject({ code: "rate_limited", retryable: true });
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    // Three calls reached the image model; the refused one did not.
    expect(fake.imageRequests()).toHaveLength(3);
    // Another user is not held by this one's count: their call gets past the limit to the post check (404).
    const other = await newUser(server.url);
    const theirs = await api(`/api/posts/${post.postId}/media/0/image/generate`, {
      method: "POST",
      server: server.url,
      token: other.token,
    });
    expect(theirs.status).toBe(404);
    fake.reset();
  });
});

describe.runIf(onPostgres)("brand kit: roles (PostgreSQL)", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.stop());

  it("lets only the owner change the kit (403 forbidden with the role), editors change post images", async () => {
    const owner = await newUser(server.url);
    const editor = await newUser(server.url);
    const viewer = await newUser(server.url);
    const as =
      (who: { token: string }) =>
      (urlPath: string, init: Parameters<typeof api>[1] = {}) =>
        api(urlPath, { server: server.url, token: who.token, ...init });
    const brand = await newBrand({}, as(owner));
    const sql = postgres(server.databaseUrl as string, { max: 1, onnotice: () => {} });
    await sql`insert into brand_members (brand_id, user_id, role) values
      (${brand.brandId}, ${editor.userId}, 'editor'), (${brand.brandId}, ${viewer.userId}, 'viewer')`;
    await sql.end();
    const png = await square("#00C040");
    for (const who of [editor, viewer]) {
      const role = who === editor ? "editor" : "viewer";
      for (const response of [
        await upload(`/api/brands/${brand.brandId}/logo`, png, "logo.png", "image/png", as(who)),
        await as(who)(`/api/brands/${brand.brandId}/music`, { method: "DELETE" }),
        await as(who)(`/api/brands/${brand.brandId}`, { method: "PATCH", json: { font: "display" } }),
      ]) {
        expect(response.status, response.text).toBe(403);
        expect(response.body.error).toMatchObject({
          code: "forbidden",
          details: { role, required: "owner" },
        });
      }
      // Every member may look at the preview.
      expect((await as(who)(`/api/brands/${brand.brandId}/preview`)).status).toBe(200);
    }
    const post = await postWithItems(brand.brandId, [{ type: "image", aspectRatio: "1:1" }], as(owner));
    const byEditor = await as(editor)(`/api/posts/${post.postId}/media/0/image/generate`, { method: "POST" });
    expect(byEditor.status, byEditor.text).toBe(200);
    const byViewer = await as(viewer)(`/api/posts/${post.postId}/media/0/image`, { method: "DELETE" });
    expect(byViewer.status).toBe(403);
    expect(byViewer.body.error.details).toEqual({ role: "viewer", required: "editor" });
  });
});
