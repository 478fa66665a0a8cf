import { execFile } from "node:child_process";
import { createHmac, hkdfSync } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import sharp from "sharp";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { generateVideoResponse, type VideoJobView, videoJobPage } from "@/lib/contracts/video";
import { newUser } from "./support/auth";
import { api, baseUrl } from "./support/http";
import { makeImage } from "./support/images";
import { SCRIPT, videoClient } from "./support/video-api";
import { ffmpegPidsFor, ffprobe, isAlive, LONG_SCRIPT, waitFor } from "./support/video-media";

let client: ReturnType<typeof videoClient>;

/** A local media link signed as DESIGN §5 describes: HMAC-SHA256 over key and expiry, key from AUTH_SECRET. */
function signMedia(key: string, exp: number) {
  const secret = hkdfSync("sha256", inject("authSecret"), "", "brand-studio media url v1", 32);
  const sig = createHmac("sha256", Buffer.from(secret)).update(`${key}\n${exp}`).digest("base64url");
  return `/media/${key}?exp=${exp}&sig=${sig}`;
}
let brandId: string;

beforeAll(async () => {
  const { token } = await newUser(baseUrl());
  client = videoClient(baseUrl(), token);
  brandId = await client.newBrand({ primaryColor: "#3B2F2F", secondaryColor: "#E0A458" });
});

const ORDER = ["queued", "running", "succeeded"];

function expectMonotonic(seen: VideoJobView[]) {
  const progress = seen.map((job) => job.progress);
  expect(progress).toEqual([...progress].sort((a, b) => a - b));
  const statuses = seen.map((job) => ORDER.indexOf(job.status));
  expect(statuses.every((index) => index >= 0)).toBe(true);
  expect(statuses).toEqual([...statuses].sort((a, b) => a - b));
}

describe("POST /api/video/jobs: checks", () => {
  it("answers 401 without a token", async () => {
    const response = await api("/api/video/jobs", {
      method: "POST",
      json: { brandId, mode: "regular", script: SCRIPT },
    });
    expect(response.status).toBe(401);
    expect(response.body.error.code).toBe("unauthorized");
  });

  it("answers 400 invalid_request when both postId and script are sent", async () => {
    const { postId } = await client.newPost(brandId);
    const response = await client.createJob({ brandId, postId, script: SCRIPT, mode: "regular" });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: "invalid_request", retryable: false });
    expect(response.body.error.details).toContainEqual({
      path: "postId",
      message: "Send exactly one of postId or script.",
    });
  });

  it("answers 400 invalid_request when neither postId nor script is sent", async () => {
    const response = await client.createJob({ brandId, mode: "regular" });
    expect(response.status).toBe(400);
    expect(response.body.error.details).toContainEqual({
      path: "script",
      message: "Send exactly one of postId or script.",
    });
  });

  it("answers 400 invalid_request for a script under 20 characters, a brief over 1,000 and an unknown mode", async () => {
    const short = await client.createJob({ brandId, mode: "regular", script: "Too short." });
    expect(short.status).toBe(400);
    expect(short.body.error.details[0].path).toBe("script");
    const longBrief = await client.createJob({
      brandId,
      mode: "regular",
      script: SCRIPT,
      brief: "x".repeat(1001),
    });
    expect(longBrief.status).toBe(400);
    expect(longBrief.body.error.details[0].path).toBe("brief");
    const mode = await client.createJob({ brandId, mode: "cinematic", script: SCRIPT });
    expect(mode.status).toBe(400);
    expect(mode.body.error.details[0].path).toBe("mode");
  });

  it("answers 404 for another user's brand and for a post that is not the brand's", async () => {
    const other = videoClient(baseUrl(), (await newUser(baseUrl())).token);
    const otherBrand = await other.newBrand();
    const foreign = await client.createJob({ brandId: otherBrand, mode: "regular", script: SCRIPT });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe("not_found");

    const { postId } = await other.newPost(otherBrand);
    const foreignPost = await client.createJob({ brandId, postId, mode: "regular" });
    expect(foreignPost.status).toBe(404);
    expect(foreignPost.body.error.code).toBe("not_found");
  });

  it("answers 409 brand_not_ready, not retryable, for a brand without a tone", async () => {
    const toneless = await client.newBrand({ tone: "" });
    const response = await client.createJob({ brandId: toneless, mode: "regular", script: SCRIPT });
    expect(response.status).toBe(409);
    expect(response.body.error).toMatchObject({
      code: "brand_not_ready",
      retryable: false,
      details: { missing: ["tone"] },
    });
  });

  it("answers 409 brand_not_ready for avatar mode when the brand has no avatar", async () => {
    const response = await client.createJob({ brandId, mode: "avatar", script: SCRIPT });
    expect(response.status).toBe(409);
    expect(response.body.error).toMatchObject({ code: "brand_not_ready", details: { avatarStatus: "none" } });
  });
});

describe("a video job from a script", () => {
  let created: { jobId: string };
  let finished: VideoJobView;

  it("is accepted with 202, Location and Retry-After: 2, and goes queued → running → succeeded", async () => {
    const response = await client.createJob({ brandId, mode: "regular", script: SCRIPT, brief: "short" });
    expect(response.status).toBe(202);
    created = generateVideoResponse.parse(response.body);
    expect(response.body.status).toBe("queued");
    expect(response.body.estimatedSeconds).toBeGreaterThan(0);
    expect(response.headers.get("location")).toBe(`/api/video/jobs/${created.jobId}`);
    expect(response.headers.get("retry-after")).toBe("2");

    const { job, seen } = await client.pollJob(
      created.jobId,
      (j) => j.status === "succeeded" || j.status === "failed",
    );
    finished = job;
    expectMonotonic(seen);
    expect(seen.some((j) => j.status === "running" && j.progress > 0 && j.progress < 100)).toBe(true);
    expect(job).toMatchObject({
      status: "succeeded",
      progress: 100,
      estimatedSeconds: 0,
      brandId,
      postId: null,
      mode: "regular",
      aspectRatio: "16:9",
      error: null,
      script: SCRIPT,
      brief: "short",
    });
    // Signed and expiring (MEDIA_URL_TTL_SECONDS, 7 days by default; at least 90 % of it is left).
    const signed = new URL(job.videoUrl ?? "", baseUrl());
    expect(signed.pathname).toBe(`/media/videos/${created.jobId}/video.mp4`);
    const lifetime = Number(signed.searchParams.get("exp")) - Date.now() / 1000;
    expect(lifetime).toBeGreaterThan(0.9 * 604_800 - 5);
    expect(lifetime).toBeLessThanOrEqual(604_800);
    expect(signed.searchParams.get("sig")).toMatch(/^[\w-]{43}$/);
    expect(new URL(job.thumbnailUrl ?? "", baseUrl()).pathname).toBe(
      `/media/videos/${created.jobId}/poster.jpg`,
    );
    expect(Date.parse(job.startedAt ?? "")).toBeGreaterThanOrEqual(Date.parse(job.createdAt));
    expect(Date.parse(job.finishedAt ?? "")).toBeGreaterThanOrEqual(Date.parse(job.startedAt ?? ""));
  });

  it("serves an H.264/AAC MP4 as long as the job says, with Range requests answered 206", async () => {
    const url = `${baseUrl()}${finished.videoUrl}`;
    const full = Buffer.from(await (await fetch(url)).arrayBuffer());
    const file = path.join(os.tmpdir(), `${finished.jobId}.mp4`);
    fs.writeFileSync(file, full);
    const probe = await ffprobe(file);
    fs.rmSync(file);
    expect(probe.streams.map((stream) => stream.codec_name).sort()).toEqual(["aac", "h264"]);
    // The file's length in whole seconds, rounded down: what a player's clock shows for it.
    expect(finished.durationSeconds).toBe(Math.floor(Number(probe.format.duration)));

    const range = await fetch(url, { headers: { Range: "bytes=100-1099" } });
    expect(range.status).toBe(206);
    expect(range.headers.get("content-range")).toBe(`bytes 100-1099/${full.length}`);
    expect(range.headers.get("content-type")).toBe("video/mp4");
    expect(Buffer.from(await range.arrayBuffer()).equals(full.subarray(100, 1100))).toBe(true);

    const tail = await fetch(url, { headers: { Range: "bytes=-64" } });
    expect(tail.status).toBe(206);
    expect(Buffer.from(await tail.arrayBuffer()).equals(full.subarray(full.length - 64))).toBe(true);

    const past = await fetch(url, { headers: { Range: `bytes=${full.length}-` } });
    expect(past.status).toBe(416);
    expect(past.headers.get("content-range")).toBe(`bytes */${full.length}`);

    const poster = await fetch(`${baseUrl()}${finished.thumbnailUrl}`);
    expect(poster.headers.get("content-type")).toBe("image/jpeg");
  });

  it("serves media only at a valid signed URL: unsigned, tampered and expired links answer 404 in the envelope", async () => {
    const signed = new URL(finished.videoUrl ?? "", baseUrl());
    const key = signed.pathname.slice("/media/".length);
    const exp = Number(signed.searchParams.get("exp"));
    const sig = signed.searchParams.get("sig") ?? "";

    const good = await fetch(signed, { method: "HEAD" });
    expect(good.status).toBe(200);
    expect(good.headers.get("content-type")).toBe("video/mp4");
    expect(good.headers.get("accept-ranges")).toBe("bytes");
    // Next 16 drops Content-Length from route handler responses (send-response.js), so HEAD tells the size
    // through a Range: Content-Range carries the total.
    const headRange = await fetch(signed, { method: "HEAD", headers: { Range: "bytes=0-0" } });
    expect(headRange.status).toBe(206);
    expect(Number(headRange.headers.get("content-range")?.split("/")[1])).toBeGreaterThan(1000);
    const cacheControl = good.headers.get("cache-control") ?? "";
    expect(cacheControl).toMatch(/^private, max-age=\d+$/);
    expect(cacheControl).not.toMatch(/immutable/);
    expect(Number(cacheControl.split("=")[1])).toBeLessThanOrEqual(exp - Math.floor(Date.now() / 1000) + 1);

    const flipped = `${sig[0] === "A" ? "B" : "A"}${sig.slice(1)}`;
    const bad = [
      `/media/${key}`,
      `/media/${key}?exp=${exp}`,
      `/media/${key}?exp=${exp}&sig=${flipped}`,
      `/media/${key}?exp=${exp + 3600}&sig=${sig}`,
      `/media/${key.replace("video.mp4", "poster.jpg")}?exp=${exp}&sig=${sig}`,
      // Correctly signed with the server's secret, but its expiry has passed.
      signMedia(key, Math.floor(Date.now() / 1000) - 1),
    ];
    for (const url of bad) {
      const response = await fetch(`${baseUrl()}${url}`, { headers: { Range: "bytes=0-99" } });
      expect(response.status, url).toBe(404);
      expect(response.headers.get("content-type")).toMatch(/application\/json/);
      expect((await response.json()).error).toMatchObject({ code: "not_found", retryable: false });
    }
    // The same scheme with a future expiry works, so the expired link failed for its expiry alone.
    expect((await fetch(`${baseUrl()}${signMedia(key, exp + 60)}`)).status).toBe(200);
  });

  it("answers each status GET with a working signed link", async () => {
    const again = await client.call(`/api/video/jobs/${finished.jobId}`);
    const url = new URL(again.body.videoUrl, baseUrl());
    expect(url.pathname).toBe(new URL(finished.videoUrl ?? "", baseUrl()).pathname);
    const range = await fetch(url, { headers: { Range: "bytes=0-9" } });
    expect(range.status).toBe(206);
    expect(range.headers.get("content-range")).toMatch(/^bytes 0-9\/\d+$/);
    expect((await range.arrayBuffer()).byteLength).toBe(10);
  });

  it("answers an unchanged status with 304 to If-None-Match, and a changed one with 200", async () => {
    const first = await client.call(`/api/video/jobs/${finished.jobId}`);
    const etag = first.headers.get("etag");
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(first.headers.get("cache-control")).toBe("no-store");
    // Finished: nothing more to poll for.
    expect(first.headers.get("retry-after")).toBeNull();
    const again = await client.call(`/api/video/jobs/${finished.jobId}`, {
      headers: { "If-None-Match": etag ?? "" },
    });
    expect(again.status).toBe(304);
    expect(again.text).toBe("");
    expect(again.headers.get("etag")).toBe(etag);
    const stale = await client.call(`/api/video/jobs/${finished.jobId}`, {
      headers: { "If-None-Match": '"old"' },
    });
    expect(stale.status).toBe(200);
  });

  it("reuses a finished reference video's brief, and refuses a reference that is not finished", async () => {
    const response = await client.createJob({
      brandId,
      mode: "regular",
      script: SCRIPT,
      referenceVideoId: finished.jobId,
    });
    expect(response.status).toBe(202);
    const job = await client.getJob(response.body.jobId);
    expect(job).toMatchObject({ brief: "short", referenceVideoId: finished.jobId });
    await client.call(`/api/video/jobs/${job.jobId}`, { method: "DELETE" });
    const notFinished = await client.createJob({
      brandId,
      mode: "regular",
      script: SCRIPT,
      referenceVideoId: job.jobId,
    });
    expect(notFinished.status).toBe(400);
    expect(notFinished.body.error.details[0].path).toBe("referenceVideoId");
  });
});

describe("a video job from a post", () => {
  it("speaks the post's caption without its hashtags, and is listed by brand and by post", async () => {
    const post = await client.newPost(brandId);
    const response = await client.createJob({ brandId, postId: post.postId, mode: "regular" });
    expect(response.status).toBe(202);
    const { job } = await client.pollJob(
      response.body.jobId,
      (j) => j.status === "succeeded" || j.status === "failed",
    );
    expect(job.status).toBe("succeeded");
    expect(job.postId).toBe(post.postId);
    expect(job.script).not.toMatch(/#\w/);
    expect(job.script).not.toMatch(/swipe|link in (our )?bio|tap the link/i);
    // An Instagram post makes a reel: 9:16, 720×1280.
    expect(job.aspectRatio).toBe("9:16");
    const file = path.join(os.tmpdir(), `${job.jobId}.mp4`);
    const video = await fetch(new URL(job.videoUrl ?? "", baseUrl()));
    fs.writeFileSync(file, Buffer.from(await video.arrayBuffer()));
    const probe = await ffprobe(file);
    fs.rmSync(file);
    expect(probe.streams.find((stream) => stream.codec_type === "video")).toMatchObject({
      codec_name: "h264",
      width: 720,
      height: 1280,
    });
    expect(post.caption).toContain(job.script.split(/[.!?]/)[0].trim());

    const byPost = videoJobPage.parse(
      (await client.call(`/api/video/jobs?brandId=${brandId}&postId=${post.postId}`)).body,
    );
    expect(byPost.items.map((item) => item.jobId)).toEqual([job.jobId]);
    const byBrand = videoJobPage.parse((await client.call(`/api/video/jobs?brandId=${brandId}`)).body);
    expect(byBrand.items[0].jobId).toBe(job.jobId);
    expect(byBrand.items.length).toBeGreaterThan(1);
    const firstPage = videoJobPage.parse(
      (await client.call(`/api/video/jobs?brandId=${brandId}&limit=1`)).body,
    );
    const secondPage = videoJobPage.parse(
      (await client.call(`/api/video/jobs?brandId=${brandId}&limit=1&cursor=${firstPage.nextCursor}`)).body,
    );
    expect(secondPage.items[0].jobId).toBe(byBrand.items[1].jobId);
  });

  it("shows the post's image assets as scenes, skips one that cannot be fetched with a warning, and serves the captions as WebVTT", async () => {
    // A local image host: one bright green photo, and a 404.
    const green = await sharp({
      create: { width: 1200, height: 800, channels: 3, background: { r: 20, g: 200, b: 40 } },
    })
      .jpeg()
      .toBuffer();
    const host = http.createServer((req, res) => {
      if (req.url === "/green.jpg") {
        res.writeHead(200, { "content-type": "image/jpeg" });
        return res.end(green);
      }
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => host.listen(0, "127.0.0.1", resolve));
    const origin = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
    try {
      const response = await client.call("/api/content/create", {
        method: "POST",
        json: {
          brandId,
          channel: "instagram",
          topic: "our new seasonal autumn blend arrives this week",
          goal: "awareness",
          assets: [
            { type: "image", url: `${origin}/green.jpg` },
            { type: "image", url: `${origin}/missing.jpg` },
          ],
        },
      });
      expect(response.status).toBe(201);
      // A new draft's image items have the brand's cards, which a video shows first: without them, the
      // assets are the scenes.
      const { postId, mediaPlan } = response.body;
      for (const [index, item] of (mediaPlan.items as { imageUrl: string | null }[]).entries()) {
        if (!item.imageUrl) continue;
        const removed = await client.call(`/api/posts/${postId}/media/${index}/image`, { method: "DELETE" });
        expect(removed.status).toBe(200);
      }
      const created = await client.createJob({ brandId, postId, mode: "regular" });
      const { job } = await client.pollJob(
        created.body.jobId,
        (j) => j.status === "succeeded" || j.status === "failed",
      );
      expect(job.status).toBe("succeeded");
      expect(job.captions).toBe(true);
      expect(job.warnings).toEqual([expect.stringContaining(`Skipped the image ${origin}/missing.jpg`)]);

      const file = path.join(os.tmpdir(), `${job.jobId}.mp4`);
      fs.writeFileSync(
        file,
        Buffer.from(await (await fetch(new URL(job.videoUrl ?? "", baseUrl()))).arrayBuffer()),
      );
      const frame = path.join(os.tmpdir(), `${job.jobId}.png`);
      await promisify(execFile)("ffmpeg", [
        "-v",
        "error",
        "-ss",
        "1",
        "-i",
        file,
        "-frames:v",
        "1",
        "-y",
        frame,
      ]);
      // The one image fills the frame (cover crop, no bars): green in the middle and near both edges.
      const { data, info } = await sharp(frame).removeAlpha().raw().toBuffer({ resolveWithObject: true });
      for (const [x, y] of [
        [360, 500],
        [4, 640],
        [715, 640],
      ]) {
        const at = (y * info.width + x) * 3;
        expect([data[at] < 80, data[at + 1] > 150, data[at + 2] < 100], `pixel ${x},${y}`).toEqual([
          true,
          true,
          true,
        ]);
      }
      fs.rmSync(file);
      fs.rmSync(frame);

      const vtt = await fetch(new URL(job.captionsUrl ?? "", baseUrl()));
      expect(vtt.status).toBe(200);
      const text = await vtt.text();
      expect(text.startsWith("WEBVTT")).toBe(true);
      expect(text).toMatch(/00:00:00\.000 --> 00:00:0\d\.\d{3}/);
    } finally {
      host.close();
    }
  });

  it("leaves the captions out of the picture when captions is false, and still sends the sidecar", async () => {
    const created = await client.createJob({ brandId, script: SCRIPT, mode: "regular", captions: false });
    expect(created.status).toBe(202);
    const { job } = await client.pollJob(
      created.body.jobId,
      (j) => j.status === "succeeded" || j.status === "failed",
    );
    expect(job).toMatchObject({ status: "succeeded", captions: false, warnings: [] });
    expect(job.captionsUrl).toMatch(/captions\.vtt\?exp=/);
  });

  it("takes the frame's shape from the post's channel unless aspectRatio is sent, and refuses an unknown one", async () => {
    const shapeOf = async (body: Record<string, unknown>) => {
      const response = await client.createJob({ brandId, mode: "regular", ...body });
      expect(response.status).toBe(202);
      const job = await client.getJob(response.body.jobId);
      await client.call(`/api/video/jobs/${job.jobId}`, { method: "DELETE" });
      return job.aspectRatio;
    };
    const linkedin = await client.newPost(brandId, "linkedin");
    const telegram = await client.newPost(brandId, "telegram");
    expect(await shapeOf({ postId: linkedin.postId })).toBe("1:1");
    expect(await shapeOf({ postId: telegram.postId })).toBe("16:9");
    expect(await shapeOf({ script: SCRIPT })).toBe("16:9");
    expect(await shapeOf({ postId: linkedin.postId, aspectRatio: "4:5" })).toBe("4:5");
    expect(await shapeOf({ script: SCRIPT, aspectRatio: "9:16" })).toBe("9:16");

    const unknown = await client.createJob({ brandId, mode: "regular", script: SCRIPT, aspectRatio: "3:2" });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.code).toBe("invalid_request");
    expect(unknown.body.error.details[0].path).toBe("aspectRatio");
  });

  it("keeps jobs of other users' brands out of lists and status (404)", async () => {
    const other = videoClient(baseUrl(), (await newUser(baseUrl())).token);
    const mine = videoJobPage.parse((await client.call("/api/video/jobs")).body);
    expect(mine.items.length).toBeGreaterThan(0);
    const theirs = videoJobPage.parse((await other.call("/api/video/jobs")).body);
    expect(theirs.items).toEqual([]);
    expect((await other.call(`/api/video/jobs?brandId=${brandId}`)).status).toBe(404);
    // A finished job the owner has just polled (its status is then cached per process) is still not theirs.
    const finished = mine.items.find((job) => job.status === "succeeded" || job.status === "canceled");
    expect(finished).toBeDefined();
    const jobId = (finished ?? mine.items[0]).jobId;
    expect((await client.call(`/api/video/jobs/${jobId}`)).status).toBe(200);
    expect((await client.call(`/api/video/jobs/${jobId}`)).status).toBe(200);
    const status = await other.call(`/api/video/jobs/${jobId}`);
    expect(status.status).toBe(404);
    const cancel = await other.call(`/api/video/jobs/${jobId}`, { method: "DELETE" });
    expect(cancel.status).toBe(404);
  });
});

describe("avatar mode", () => {
  it("puts the brand's trained avatar in the frame once it is ready", async () => {
    const avatarBrand = await client.newBrand({ primaryColor: "#3B2F2F" });
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(await makeImage())], { type: "image/png" }), "avatar.png");
    expect(
      (await client.call(`/api/brands/${avatarBrand}/avatar`, { method: "POST", body: form })).status,
    ).toBe(202);
    await waitFor(
      async () => (await client.call(`/api/brands/${avatarBrand}`)).body.avatarStatus === "ready",
      { what: "the avatar to be trained" },
    );

    const response = await client.createJob({ brandId: avatarBrand, mode: "avatar", script: SCRIPT });
    expect(response.status).toBe(202);
    const { job } = await client.pollJob(
      response.body.jobId,
      (j) => j.status === "succeeded" || j.status === "failed",
    );
    expect(job).toMatchObject({ status: "succeeded", mode: "avatar" });

    // The middle of the avatar (the white disc of the test image) sits right of centre, where a regular
    // video shows only the dark brand colour.
    const poster = Buffer.from(await (await fetch(`${baseUrl()}${job.thumbnailUrl}`)).arrayBuffer());
    const { data, info } = await sharp(poster).raw().toBuffer({ resolveWithObject: true });
    const offset = (Math.round(info.height / 2) * info.width + (info.width - 70 - 220)) * info.channels;
    expect([data[offset], data[offset + 1], data[offset + 2]].every((channel) => channel > 200)).toBe(true);
  });
});

describe("DELETE /api/video/jobs/{jobId}", () => {
  it("cancels a running job: its ffmpeg process stops and the job stays canceled", async () => {
    const response = await client.createJob({ brandId, mode: "regular", script: LONG_SCRIPT });
    const { jobId } = response.body;
    const pids = await waitFor(() => ffmpegPidsFor(jobId).length > 0 && ffmpegPidsFor(jobId), {
      intervalMs: 20,
      what: "the job's ffmpeg process",
    });
    // Freeze the render where it is (a fast machine could otherwise finish it before the DELETE lands): a
    // stopped process still dies of the SIGKILL a cancel sends.
    for (const pid of pids) process.kill(pid, "SIGSTOP");
    const running = await client.getJob(jobId);
    expect(running.status).toBe("running");

    const canceled = await client.call(`/api/video/jobs/${jobId}`, { method: "DELETE" });
    expect(canceled.status).toBe(200);
    expect(canceled.body).toMatchObject({
      jobId,
      status: "canceled",
      videoUrl: null,
      estimatedSeconds: null,
    });
    await waitFor(() => pids.every((pid) => !isAlive(pid)), { timeoutMs: 5000, what: "ffmpeg to stop" });

    // The worker has let go: nothing overwrites the canceled state.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const job = await client.getJob(jobId);
    expect(job).toMatchObject({ status: "canceled", videoUrl: null });
    expect(job.progress).toBeGreaterThanOrEqual(running.progress);

    const again = await client.call(`/api/video/jobs/${jobId}`, { method: "DELETE" });
    expect(again.status).toBe(200);
    expect(again.body.status).toBe("canceled");
  });

  it("cancels a queued job, and refuses to cancel a finished one (409 job_not_cancelable)", async () => {
    const first = await client.createJob({ brandId, mode: "regular", script: SCRIPT });
    const second = await client.createJob({ brandId, mode: "regular", script: SCRIPT });
    // One render at a time per worker: the second waits while the first renders.
    const queued = await client.call(`/api/video/jobs/${second.body.jobId}`, { method: "DELETE" });
    expect(queued.status).toBe(200);
    expect(queued.body.status).toBe("canceled");

    const { job } = await client.pollJob(first.body.jobId, (j) => j.status === "succeeded");
    const finished = await client.call(`/api/video/jobs/${job.jobId}`, { method: "DELETE" });
    expect(finished.status).toBe(409);
    expect(finished.body.error).toMatchObject({
      code: "job_not_cancelable",
      details: { status: "succeeded" },
    });
    expect((await client.getJob(second.body.jobId)).status).toBe("canceled");
  });
});
