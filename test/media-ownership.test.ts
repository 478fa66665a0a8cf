import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDatabase, getDb } from "@/db/client";
import { brands, posts, videoJobs } from "@/db/schema";
import { newId } from "@/lib/ids";
import { getMediaStorage } from "@/lib/media/storage";
import { fetchableMediaUrl, mediaPlanImages, videoPayload } from "@/lib/publishing/media-delivery";
import { linkedinVideo } from "@/lib/publishing/platforms/linkedin/video";
import { prepareSceneImages } from "@/lib/video/local/scene-images";
import { visualsFromPost } from "@/lib/video/render-visuals";
import { newUser } from "./support/auth";
import { migrateInProcess } from "./support/database";
import { api, baseUrl } from "./support/http";
import { makeImage } from "./support/images";
import { createBrand } from "./support/post-fixtures";
import { createTestDatabase } from "./support/test-server";

// Media stays in its brand (issue 39, items 5 and 6): a publication reads and a render draws only files
// whose key the brand owns in the database, whatever the post holds (a row saved before the API's check).
// In this process, against its own data folder and (PostgreSQL run) its own database.
const originalEnv = {
  DATA_DIR: process.env.DATA_DIR,
  DATABASE_URL: process.env.DATABASE_URL,
  APP_URL: process.env.APP_URL,
};
let dropDatabase: (() => Promise<void>) | undefined;
const APP_URL = "http://127.0.0.1:3999";

const ours = { brandId: newId("brd"), postId: newId("pst"), jobId: newId("vjb") };
const theirs = { brandId: newId("brd"), postId: newId("pst"), jobId: newId("vjb") };
const videoKey = (jobId: string) => `videos/${jobId}/video.mp4`;
const imageKey = (postId: string) => `posts/${postId}/media/picture.jpg`;

beforeAll(async () => {
  process.env.DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "bs-media-owner-"));
  process.env.APP_URL = APP_URL;
  if (originalEnv.DATABASE_URL) {
    const database = await createTestDatabase(originalEnv.DATABASE_URL);
    process.env.DATABASE_URL = database.url;
    dropDatabase = database.drop;
  }
  await migrateInProcess();
  const db = await getDb();
  const picture = await makeImage({ format: "jpeg", width: 320, height: 240 });
  for (const brand of [ours, theirs]) {
    await db.insert(brands).values({ id: brand.brandId, name: "Brand" });
    await db.insert(posts).values({
      id: brand.postId,
      groupId: brand.postId,
      brandId: brand.brandId,
      channel: "telegram",
      goal: "announcement",
      topic: "Roasting day",
      caption: "Roasting day.",
      mediaPlan: { format: "text_only", items: [] },
      hashtags: [],
      seed: 1,
      provider: "test",
      model: "test",
      latencyMs: 1,
    });
    await db.insert(videoJobs).values({
      id: brand.jobId,
      brandId: brand.brandId,
      mode: "regular",
      script: "Roasting day.",
      status: "succeeded",
      videoUrl: videoKey(brand.jobId),
      quotaMonth: "2026-11",
    });
    await getMediaStorage().put(videoKey(brand.jobId), Buffer.alloc(80_000, 1), "video/mp4");
    await getMediaStorage().put(imageKey(brand.postId), picture, "image/jpeg");
  }
});

afterAll(async () => {
  await closeDatabase();
  await dropDatabase?.();
  fs.rmSync(process.env.DATA_DIR ?? "", { recursive: true, force: true });
  Object.assign(process.env, originalEnv);
  for (const [name, value] of Object.entries(originalEnv)) if (value === undefined) delete process.env[name];
});

const image = (key: string) => ({
  type: "image" as const,
  description: "",
  imageKey: key,
  altText: "",
  aspectRatio: "1:1" as const,
});

describe("a publication sends only its brand's media", () => {
  it("reads the brand's own video and images", async () => {
    const own = await videoPayload(videoKey(ours.jobId), ours.brandId);
    expect(own).toMatchObject({ kind: "upload", filename: "video.mp4" });
    const images = await mediaPlanImages({
      brandId: ours.brandId,
      mediaPlan: { format: "single_image", items: [image(imageKey(ours.postId))] },
    });
    expect(images).toHaveLength(1);
    expect(await fetchableMediaUrl(`/media/${videoKey(ours.jobId)}`, ours.brandId)).toMatch(/^http/);
  });

  it("refuses another brand's video and images, by key, path or URL on APP_URL", async () => {
    const refused = /another brand/;
    for (const stored of [
      videoKey(theirs.jobId),
      `/media/${videoKey(theirs.jobId)}`,
      `${APP_URL}/media/${videoKey(theirs.jobId)}?exp=1&sig=x`,
      // A key no row owns is no brand's either.
      videoKey(newId("vjb")),
    ]) {
      await expect(videoPayload(stored, ours.brandId), stored).rejects.toThrow(refused);
      await expect(fetchableMediaUrl(stored, ours.brandId), stored).rejects.toThrow(refused);
    }
    await expect(
      linkedinVideo({ brandId: ours.brandId, videoUrl: videoKey(theirs.jobId), topic: "Roasting day" }),
    ).rejects.toThrow(refused);
    await expect(
      mediaPlanImages({
        brandId: ours.brandId,
        mediaPlan: { format: "single_image", items: [image(imageKey(theirs.postId))] },
      }),
    ).rejects.toThrow(refused);
    // Another site's link goes on as a link (the platform fetches it, not this server).
    expect(await videoPayload("https://cdn.example.com/clip.mp4", ours.brandId)).toEqual({
      kind: "url",
      url: "https://cdn.example.com/clip.mp4",
    });
  });
});

describe("a render draws only its brand's images", () => {
  it("skips another brand's post image named by an APP_URL asset, and draws the brand's own", async () => {
    const visuals = await visualsFromPost({
      brandId: ours.brandId,
      caption: "Roasting day.",
      mediaPlan: { format: "single_image", items: [image(imageKey(ours.postId))] },
      assets: [
        { type: "image", url: `${APP_URL}/media/${imageKey(theirs.postId)}?exp=1&sig=x` },
        { type: "image", url: `/media/${imageKey(theirs.postId)}` },
      ],
    });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bs-media-owner-render-"));
    try {
      const { images, warnings } = await prepareSceneImages({
        sources: visuals?.images ?? [],
        width: 320,
        height: 240,
        fileFor: (index) => path.join(dir, `image-${index}.jpg`),
        signal: new AbortController().signal,
      });
      expect(images.map((drawn) => drawn.index)).toEqual([0]);
      expect(warnings).toHaveLength(2);
      for (const warning of warnings) expect(warning).toMatch(/another brand/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("PATCH /api/posts/{id} takes only the brand's own media (HTTP, shared server)", () => {
  it("answers 400 for another brand's video by job id, or any media key the brand does not own", async () => {
    const us = await newUser(baseUrl());
    const them = await newUser(baseUrl());
    const as =
      (token: string) =>
      (p: string, init: Parameters<typeof api>[1] = {}) =>
        api(p, { token, ...init });
    const [call, theirCall] = [as(us.token), as(them.token)];
    const ourBrand = await createBrand(api, us.token, { name: "Ours", tone: "warm", voice: "short" });
    const theirBrand = await createBrand(api, them.token, { name: "Theirs", tone: "calm", voice: "plain" });
    // Their video job (its id is no secret: webhooks, activity and page URLs carry it), canceled at once.
    const job = await theirCall("/api/video/jobs", {
      method: "POST",
      json: { brandId: theirBrand, mode: "regular", script: "Fresh beans, roasted every morning. Come in." },
    });
    expect(job.status, job.text).toBe(202);
    await theirCall(`/api/video/jobs/${job.body.jobId}`, { method: "DELETE" });
    const created = await call("/api/content/create", {
      method: "POST",
      json: {
        brandId: ourBrand,
        channel: "telegram",
        goal: "announcement",
        topic: "Our roasting day, filmed",
      },
    });
    expect(created.status, created.text).toBe(201);
    const patch = (videoUrl: string | null) =>
      call(`/api/posts/${created.body.postId}`, { method: "PATCH", json: { videoUrl } });

    for (const foreign of [
      `/media/videos/${job.body.jobId}/video.mp4`,
      `/media/videos/${job.body.jobId}/video.mp4?exp=9999999999&sig=abc`,
      `${baseUrl()}/media/videos/${job.body.jobId}/video.mp4`,
      `/media/brands/${theirBrand}/logo/x.png`,
      "/media/videos/vjb_nobodys/video.mp4",
    ]) {
      const refused = await patch(foreign);
      expect(refused.status, `${foreign}: ${refused.text}`).toBe(400);
      expect(refused.headers.get("x-request-id")).toBeTruthy();
      expect(refused.body.error).toMatchObject({ code: "invalid_request", details: [{ path: "videoUrl" }] });
    }
    expect((await call(`/api/posts/${created.body.postId}`)).body.videoUrl).toBeNull();
    // Another site's video and no video stay allowed.
    const elsewhere = await patch("https://cdn.example.com/clip.mp4");
    expect(elsewhere.status, elsewhere.text).toBe(200);
    expect(elsewhere.body.videoUrl).toBe("https://cdn.example.com/clip.mp4");
    expect((await patch(null)).status).toBe(200);
  });
});
