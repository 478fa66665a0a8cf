import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BrandResponse, brandResponse } from "@/lib/contracts/brands";
import { newUser } from "./support/auth";
import { api } from "./support/http";
import { makeImage } from "./support/images";
import { startTestServer, type TestServer } from "./support/test-server";

// Its own server: the tests look into its data folder to check what was (not) stored.
let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startTestServer();
  ({ token } = await newUser(server.url));
});
afterAll(() => server?.stop());

const call = (urlPath: string, init: Parameters<typeof api>[1] = {}) =>
  api(urlPath, { server: server.url, token, ...init });

async function newBrand() {
  const response = await call("/api/brands", {
    method: "POST",
    json: { name: "Avatar Brand", tone: "warm", voice: "plain" },
  });
  return brandResponse.parse(response.body);
}

function upload(brandId: string, bytes: Buffer, name = "avatar.png", type = "image/png") {
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(bytes)], { type }), name);
  return call(`/api/brands/${brandId}/avatar`, { method: "POST", body: form });
}

const avatarFolder = (brandId: string) => path.join(server.dataDir, "media", "avatars", brandId);
const storedFiles = (brandId: string) =>
  fs.existsSync(avatarFolder(brandId)) ? fs.readdirSync(avatarFolder(brandId), { recursive: true }) : [];

async function waitForAvatar(brandId: string, until: (brand: BrandResponse) => boolean) {
  const seen: string[] = [];
  for (let i = 0; i < 120; i++) {
    const brand = brandResponse.parse((await call(`/api/brands/${brandId}`)).body);
    if (seen.at(-1) !== brand.avatarStatus) seen.push(brand.avatarStatus);
    if (until(brand)) return { brand, seen };
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`The avatar of ${brandId} never settled; statuses seen: ${seen.join(" → ")}`);
}

/** A media URL without its signature (which may be renewed between two responses). */
const pathOf = (url: string | null | undefined) => (url ? new URL(url, server.url).pathname : url);

async function fetchMedia(url: string) {
  const response = await fetch(`${server.url}${url}`);
  return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()) };
}

describe("avatar upload and training", () => {
  it("goes none → training → ready on its own, and prepares a 512×512 circular PNG frame", async () => {
    const brand = await newBrand();
    expect(brand.avatarStatus).toBe("none");

    const started = Date.now();
    const response = await upload(brand.brandId, await makeImage({ width: 640, height: 480 }));
    expect(response.status).toBe(202);
    expect(response.headers.get("location")).toBe(`/api/brands/${brand.brandId}`);
    expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
    const training = brandResponse.parse(response.body);
    expect(training).toMatchObject({ avatarStatus: "training", avatarError: null, avatarFrameUrl: null });
    expect(Date.parse(training.avatarTrainingEndsAt ?? "")).toBeGreaterThan(started);
    expect(training.avatarUrl).toMatch(
      new RegExp(`^/media/avatars/${brand.brandId}/[\\w-]+/image\\.png\\?exp=\\d+&sig=[\\w-]+$`),
    );

    const { brand: ready, seen } = await waitForAvatar(brand.brandId, (b) => b.avatarStatus !== "training");
    expect(seen.at(-1)).toBe("ready");
    expect(ready).toMatchObject({ avatarStatus: "ready", avatarError: null, avatarTrainingEndsAt: null });
    const context = await call(`/api/brands/${brand.brandId}/context`);
    expect(context.body.avatarStatus).toBe("ready");

    const frame = await fetchMedia(ready.avatarFrameUrl ?? "");
    expect(frame.status).toBe(200);
    const { data, info } = await sharp(frame.bytes).raw().toBuffer({ resolveWithObject: true });
    expect(await sharp(frame.bytes).metadata()).toMatchObject({ format: "png", width: 512, height: 512 });
    expect(info.channels).toBe(4);
    const alphaAt = (x: number, y: number) => data[(y * info.width + x) * 4 + 3];
    expect(alphaAt(2, 2)).toBe(0);
    expect(alphaAt(509, 509)).toBe(0);
    expect(alphaAt(256, 256)).toBe(255);
    expect(alphaAt(256, 5)).toBe(255);
  });

  it("re-encodes the upload, so its metadata (EXIF) is gone, and keeps the format", async () => {
    const brand = await newBrand();
    const photo = await makeImage({
      format: "jpeg",
      exif: { Artist: "Secret Photographer", Copyright: "GPS 1,2" },
    });
    expect((await sharp(photo).metadata()).exif).toBeDefined();
    const response = await upload(brand.brandId, photo, "photo.jpg", "image/jpeg");
    expect(response.status).toBe(202);
    const stored = await fetchMedia(response.body.avatarUrl);
    expect(stored.status).toBe(200);
    const metadata = await sharp(stored.bytes).metadata();
    expect(metadata.format).toBe("jpeg");
    expect(metadata.exif).toBeUndefined();
    expect(stored.bytes.includes(Buffer.from("Secret Photographer"))).toBe(false);
  });

  it("a new upload replaces the old avatar: the old files are removed and the new one trains", async () => {
    const brand = await newBrand();
    const first = await upload(brand.brandId, await makeImage({ format: "webp" }), "a.webp", "image/webp");
    const { brand: firstReady } = await waitForAvatar(brand.brandId, (b) => b.avatarStatus === "ready");
    expect(pathOf(firstReady.avatarUrl)).toBe(pathOf(first.body.avatarUrl));

    const second = await upload(brand.brandId, await makeImage({ width: 300, height: 300 }));
    expect(second.status).toBe(202);
    expect(second.body).toMatchObject({ avatarStatus: "training", avatarFrameUrl: null });
    expect(pathOf(second.body.avatarUrl)).not.toBe(pathOf(first.body.avatarUrl));
    expect((await fetchMedia(firstReady.avatarUrl ?? "")).status).toBe(404);
    expect((await fetchMedia(firstReady.avatarFrameUrl ?? "")).status).toBe(404);

    const { brand: secondReady } = await waitForAvatar(brand.brandId, (b) => b.avatarStatus === "ready");
    expect(pathOf(secondReady.avatarUrl)).toBe(pathOf(second.body.avatarUrl));
    expect(storedFiles(brand.brandId).filter((entry) => String(entry).endsWith(".png")).length).toBe(2);
  });

  it("an image with nothing in it (one flat colour) is accepted, then training fails with a reason", async () => {
    const brand = await newBrand();
    const response = await upload(brand.brandId, await makeImage({ flat: true }));
    expect(response.status).toBe(202);
    const { brand: failed } = await waitForAvatar(brand.brandId, (b) => b.avatarStatus !== "training");
    expect(failed).toMatchObject({
      avatarStatus: "failed",
      avatarFrameUrl: null,
      avatarTrainingEndsAt: null,
    });
    expect(failed.avatarError).toMatch(/single flat colour/);
  });
});

describe("bad uploads answer 400 and store nothing", () => {
  const png = () => makeImage({ width: 400, height: 400 });

  type Upload = [bytes: Buffer, name: string, type: string];
  const badUploads: [string, () => Promise<Upload>, RegExp][] = [
    [
      "a text file named .png and sent as image/png",
      async () => [
        Buffer.from("this is not an image, only text pretending to be one"),
        "avatar.png",
        "image/png",
      ],
      /not a PNG, JPEG or WebP image/,
    ],
    [
      "an HTML page named .jpg",
      async () => [Buffer.from("<!doctype html><title>x</title>"), "avatar.jpg", "image/jpeg"],
      /not a PNG, JPEG or WebP image/,
    ],
    [
      "a truncated PNG",
      async () => [(await png()).subarray(0, 400), "avatar.png", "image/png"],
      /damaged or incomplete/,
    ],
    [
      "a truncated JPEG",
      async () => {
        const jpeg = await makeImage({ format: "jpeg", width: 400, height: 400 });
        return [jpeg.subarray(0, Math.floor(jpeg.length * 0.6)), "avatar.jpg", "image/jpeg"];
      },
      /damaged or incomplete/,
    ],
    [
      "an image smaller than 128×128",
      async () => [await makeImage({ width: 64, height: 64 }), "tiny.png", "image/png"],
      /64×64 pixels; an avatar needs at least 128×128/,
    ],
    ["an empty file", async () => [Buffer.alloc(0), "empty.png", "image/png"], /file is empty/],
  ];

  it.each(badUploads)("%s", async (_name, make, message) => {
    const brand = await newBrand();
    const response = await upload(brand.brandId, ...(await make()));
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: "invalid_request", retryable: false });
    expect(response.body.error.message).toMatch(message);
    expect(response.body.error.details).toEqual([{ path: "file", message: response.body.error.message }]);
    expect(storedFiles(brand.brandId)).toEqual([]);
    const after = await call(`/api/brands/${brand.brandId}`);
    expect(after.body).toEqual(brand);
  });

  it("refuses an image over 5 MB with 413 payload_too_large", async () => {
    const brand = await newBrand();
    const big = Buffer.concat([await png(), Buffer.alloc(5 * 1024 * 1024)]);
    const response = await upload(brand.brandId, big, "big.png", "image/png");
    expect(response.status).toBe(413);
    expect(response.body.error).toMatchObject({ code: "payload_too_large", retryable: false });
    expect(response.body.error.message).toMatch(/larger than 5 MB/);
    expect(response.body.error.details).toEqual([{ path: "file", message: response.body.error.message }]);
    expect(storedFiles(brand.brandId)).toEqual([]);
  });

  it("refuses a body that is not multipart, and a form without the file field", async () => {
    const brand = await newBrand();
    const json = await call(`/api/brands/${brand.brandId}/avatar`, { method: "POST", json: { file: "x" } });
    expect(json.status).toBe(400);
    expect(json.body.error.message).toMatch(/multipart\/form-data/);

    const form = new FormData();
    form.append("image", new Blob([new Uint8Array(await png())], { type: "image/png" }), "a.png");
    const wrongField = await call(`/api/brands/${brand.brandId}/avatar`, { method: "POST", body: form });
    expect(wrongField.status).toBe(400);
    expect(wrongField.body.error.message).toMatch(/field "file"/);
    expect(storedFiles(brand.brandId)).toEqual([]);
  });

  it("refuses a declared Content-Length over the limit before the body arrives", async () => {
    const brand = await newBrand();
    const url = new URL(`/api/brands/${brand.brandId}/avatar`, server.url);
    // Declares 50 MB, sends a few bytes and then waits: only an early answer can end this request.
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = http.request(url, {
        method: "POST",
        headers: {
          authorization: `Bearer ${token}`,
          "content-type": "multipart/form-data; boundary=x",
          "content-length": String(50 * 1024 * 1024),
        },
      });
      const timer = setTimeout(() => reject(new Error("The server waited for the whole body.")), 15_000);
      request.on("response", (response) => {
        let body = "";
        response.on("data", (chunk) => {
          body += chunk;
        });
        response.on("end", () => {
          clearTimeout(timer);
          request.destroy();
          resolve({ status: response.statusCode ?? 0, body });
        });
      });
      request.on("error", (error) => {
        clearTimeout(timer);
        reject(error);
      });
      request.write("--x\r\n");
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body).error.message).toMatch(/larger than 5 MB/);
    expect(storedFiles(brand.brandId)).toEqual([]);
  });

  it("cuts off a streamed upload without Content-Length once it passes the limit", async () => {
    const brand = await newBrand();
    const chunk = new Uint8Array(1024 * 1024);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === 0) controller.enqueue(new TextEncoder().encode("--x\r\n"));
        if (sent++ < 8) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const response = await fetch(`${server.url}/api/brands/${brand.brandId}/avatar`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "multipart/form-data; boundary=x" },
      body,
      duplex: "half",
    } as RequestInit);
    expect(response.status).toBe(413);
    expect((await response.json()).error.message).toMatch(/larger than 5 MB/);
    expect(storedFiles(brand.brandId)).toEqual([]);
  });
});
