import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { buffer } from "node:stream/consumers";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { localMediaStorage } from "@/lib/media/local-storage";
import { s3MediaStorage } from "@/lib/media/s3-storage";
import { MediaNotFoundError, type MediaStorage } from "@/lib/media/storage";
import { type S3Server, startS3Server } from "./support/s3-server";

// Both adapters against the real thing: a folder, and a real S3-compatible server (s3rver) over HTTP.
let s3: S3Server;
let localRoot: string;
const stores: Record<"local" | "s3", () => MediaStorage> = {
  local: () => localMediaStorage(localRoot),
  s3: () => s3MediaStorage({ ...s3Options(), S3_FORCE_PATH_STYLE: true }),
};
const s3Options = () => ({
  S3_ENDPOINT: s3.endpoint,
  S3_REGION: "us-east-1",
  S3_BUCKET: s3.bucket,
  S3_ACCESS_KEY_ID: "S3RVER",
  S3_SECRET_ACCESS_KEY: "S3RVER",
});
const run = promisify(execFile);

beforeAll(async () => {
  s3 = await startS3Server();
  localRoot = fs.mkdtempSync(path.join(os.tmpdir(), "bs-media-"));
});

afterAll(async () => {
  await s3?.stop();
  fs.rmSync(localRoot, { recursive: true, force: true });
});

describe.each(["local", "s3"] as const)("the %s media store", (kind) => {
  const id = () => `vjb_${randomBytes(6).toString("hex")}`;

  it("stores from a file path, a stream and bytes, and reads them back with stat and byte ranges", async () => {
    const store = stores[kind]();
    const folder = `videos/${id()}`;
    const bytes = randomBytes(100_000);
    const file = path.join(localRoot, `source-${kind}.bin`);
    fs.writeFileSync(file, bytes);

    await store.put(`${folder}/from-path.mp4`, file);
    await store.put(
      `${folder}/from-stream.jpg`,
      Readable.from([bytes.subarray(0, 50_000), bytes.subarray(50_000)]),
    );
    await store.put(`${folder}/from-bytes.png`, bytes);

    for (const name of ["from-path.mp4", "from-stream.jpg", "from-bytes.png"]) {
      expect((await buffer(await store.read(`${folder}/${name}`))).equals(bytes)).toBe(true);
    }
    const stat = await store.stat(`${folder}/from-path.mp4`);
    expect(stat).toMatchObject({ size: bytes.length, contentType: "video/mp4" });
    expect(Math.abs((stat?.modifiedAt.getTime() ?? 0) - Date.now())).toBeLessThan(60_000);
    expect((await store.stat(`${folder}/from-stream.jpg`))?.contentType).toBe("image/jpeg");

    const range = await buffer(await store.read(`${folder}/from-path.mp4`, { start: 100, end: 1099 }));
    expect(range.equals(bytes.subarray(100, 1100))).toBe(true);
    const tail = await buffer(
      await store.read(`${folder}/from-path.mp4`, { start: bytes.length - 1, end: bytes.length - 1 }),
    );
    expect(tail.equals(bytes.subarray(bytes.length - 1))).toBe(true);

    // Replacing a file replaces it whole.
    await store.put(`${folder}/from-bytes.png`, Buffer.from("second"));
    expect((await buffer(await store.read(`${folder}/from-bytes.png`))).toString()).toBe("second");
  });

  it("answers a missing key with null from stat and MediaNotFoundError from read", async () => {
    const store = stores[kind]();
    expect(await store.stat(`videos/${id()}/video.mp4`)).toBeNull();
    await expect(store.read(`videos/${id()}/video.mp4`)).rejects.toBeInstanceOf(MediaNotFoundError);
  });

  it("removes a folder and everything in it, but not a neighbour whose name starts the same", async () => {
    const store = stores[kind]();
    const folder = `videos/${id()}`;
    await store.put(`${folder}/video.mp4`, Buffer.from("v"));
    await store.put(`${folder}/nested/poster.jpg`, Buffer.from("p"));
    await store.put(`${folder}1/video.mp4`, Buffer.from("neighbour"));
    await store.remove(folder);
    expect(await store.stat(`${folder}/video.mp4`)).toBeNull();
    expect(await store.stat(`${folder}/nested/poster.jpg`)).toBeNull();
    expect(await store.stat(`${folder}1/video.mp4`)).not.toBeNull();
    await store.remove(`${folder}/never-was`);
  });

  it("refuses keys that could leave the store", async () => {
    const store = stores[kind]();
    await expect(store.put("../escape.mp4", Buffer.from("x"))).rejects.toThrow(/Unsafe media key/);
    await expect(store.read("videos/../../etc/passwd")).rejects.toThrow(/Unsafe media key/);
  });

  it("streams a 50 MB file in and out, never holding the whole file in memory", async () => {
    const options = kind === "s3" ? { ...s3Options(), S3_FORCE_PATH_STYLE: true } : { root: localRoot };
    const { stdout } = await run(
      process.execPath,
      [
        "--expose-gc",
        "--conditions=react-server",
        "--import",
        "tsx",
        "test/support/measure-streamed-put.ts",
        kind,
        JSON.stringify(options),
      ],
      { cwd: path.resolve(__dirname, ".."), maxBuffer: 1024 * 1024 },
    );
    const result = JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}");
    expect(result).toMatchObject({ size: 50 * 1024 * 1024, same: true });
    // Never the whole file at once: it would take 50 MB. (S3 uploads 5 MB parts, two in flight; the
    // measured peak, buffers of the source stream and the SDK included, stays near 40 MB, also for 150 MB.)
    expect(result.peak).toBeLessThan(50 * 1024 * 1024);
  }, 180_000);

  it("answers a readiness check", async () => {
    await expect(stores[kind]().check()).resolves.toBeUndefined();
  });
});

describe("S3 presigned media URLs", () => {
  it("serve the file over HTTP, with Range answered 206 and a Content-Length", async () => {
    const store = stores.s3();
    const key = `videos/vjb_${randomBytes(6).toString("hex")}/video.mp4`;
    const bytes = randomBytes(20_000);
    await store.put(key, bytes);
    const url = await store.signedUrl(key);
    expect(url.startsWith(`${s3.endpoint}/${s3.bucket}/${key}?`)).toBe(true);
    expect(new URL(url).searchParams.get("X-Amz-Expires")).toBe("604800");

    const full = await fetch(url);
    expect(full.status).toBe(200);
    expect(full.headers.get("content-type")).toBe("video/mp4");
    expect(Buffer.from(await full.arrayBuffer()).equals(bytes)).toBe(true);

    const range = await fetch(url, { headers: { Range: "bytes=1000-1999" } });
    expect(range.status).toBe(206);
    expect(range.headers.get("content-length")).toBe("1000");
    expect(range.headers.get("content-range")).toBe(`bytes 1000-1999/${bytes.length}`);
    expect(Buffer.from(await range.arrayBuffer()).equals(bytes.subarray(1000, 2000))).toBe(true);
  });

  it("a presigned URL stops working once expired", async () => {
    const store = stores.s3();
    const key = `videos/vjb_${randomBytes(6).toString("hex")}/video.mp4`;
    await store.put(key, Buffer.from("private"));
    // s3rver checks a presigned URL's expiry, but neither its SigV4 signature nor access to the bucket
    // (it serves unsigned GETs), so tampered and unsigned links are S3's own checks here; the local
    // store's HMAC links are tested for both in video-jobs.test.ts.

    // Signed eight days ago with the 7-day lifetime: expired now.
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() - 8 * 24 * 3600 * 1000);
    const old = await store.signedUrl(key).finally(() => vi.useRealTimers());
    expect((await fetch(old)).status).toBe(403);
    expect((await fetch(await store.signedUrl(key))).status).toBe(200);
  });

  it("fails the readiness check when the bucket is missing", async () => {
    const store = s3MediaStorage({
      S3_ENDPOINT: s3.endpoint,
      S3_REGION: "us-east-1",
      S3_BUCKET: "no-such-bucket",
      S3_ACCESS_KEY_ID: "S3RVER",
      S3_SECRET_ACCESS_KEY: "S3RVER",
      S3_FORCE_PATH_STYLE: true,
    });
    await expect(store.check()).rejects.toThrow();
  });
});
