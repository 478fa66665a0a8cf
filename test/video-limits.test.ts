import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { videoJobPage } from "@/lib/contracts/video";
import { newUser } from "./support/auth";
import { makeImage } from "./support/images";
import { startTestServer, type TestServer } from "./support/test-server";
import { SCRIPT, videoClient } from "./support/video-api";
import { waitFor } from "./support/video-media";

const firstOfNextMonth = () => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString();
};

// No worker runs here (WORKER=off), so jobs stay queued: the quota is counted without rendering anything,
// and an avatar upload stays in training.
describe("quota and avatar training (a server with VIDEO_MONTHLY_QUOTA=5 and no worker)", () => {
  let server: TestServer;
  let client: ReturnType<typeof videoClient>;

  beforeAll(async () => {
    server = await startTestServer({ env: { VIDEO_MONTHLY_QUOTA: "5", WORKER: "off" } });
    client = videoClient(server.url, (await newUser(server.url)).token);
  });
  afterAll(() => server?.stop());

  it("accepts exactly 5 of 20 concurrent creates; the rest answer 429 quota_exceeded with limit, used and resetsAt", async () => {
    const brandId = await client.newBrand();
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => client.createJob({ brandId, mode: "regular", script: SCRIPT })),
    );
    const accepted = responses.filter((response) => response.status === 202);
    const refused = responses.filter((response) => response.status === 429);
    expect(accepted).toHaveLength(5);
    expect(refused).toHaveLength(15);
    for (const response of refused) {
      expect(response.body.error).toMatchObject({
        code: "quota_exceeded",
        retryable: false,
        details: { limit: 5, used: 5, resetsAt: firstOfNextMonth() },
      });
    }
    const listed = videoJobPage.parse((await client.call(`/api/video/jobs?brandId=${brandId}`)).body);
    expect(listed.items).toHaveLength(5);

    // A canceled job gives its unit back.
    const canceled = await client.call(`/api/video/jobs/${accepted[0].body.jobId}`, { method: "DELETE" });
    expect(canceled.status).toBe(200);
    expect((await client.createJob({ brandId, mode: "regular", script: SCRIPT })).status).toBe(202);
    expect((await client.createJob({ brandId, mode: "regular", script: SCRIPT })).status).toBe(429);
  });

  it("counts per brand, and a brand's own monthlyVideoQuota overrides the default", async () => {
    const brandId = await client.newBrand({ monthlyVideoQuota: 1 });
    expect((await client.createJob({ brandId, mode: "regular", script: SCRIPT })).status).toBe(202);
    const refused = await client.createJob({ brandId, mode: "regular", script: SCRIPT });
    expect(refused.status).toBe(429);
    expect(refused.body.error.details).toMatchObject({ limit: 1, used: 1 });

    const raised = await client.call(`/api/brands/${brandId}`, {
      method: "PATCH",
      json: { monthlyVideoQuota: 2 },
    });
    expect(raised.status).toBe(200);
    expect((await client.createJob({ brandId, mode: "regular", script: SCRIPT })).status).toBe(202);

    const otherBrand = await client.newBrand({ monthlyVideoQuota: 1 });
    expect((await client.createJob({ brandId: otherBrand, mode: "regular", script: SCRIPT })).status).toBe(
      202,
    );
  });

  it("answers 409 avatar_training, retryable, with Retry-After set to the training seconds left", async () => {
    const brandId = await client.newBrand();
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(await makeImage())], { type: "image/png" }), "avatar.png");
    const upload = await client.call(`/api/brands/${brandId}/avatar`, { method: "POST", body: form });
    expect(upload.status).toBe(202);
    const endsAt = Date.parse(upload.body.avatarTrainingEndsAt);

    const response = await client.createJob({ brandId, mode: "avatar", script: SCRIPT });
    expect(response.status).toBe(409);
    expect(response.body.error).toMatchObject({ code: "avatar_training", retryable: true });
    const retryAfter = Number(response.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(Math.abs(retryAfter - (endsAt - Date.now()) / 1000)).toBeLessThanOrEqual(2);
    expect(response.body.error.details.retryAfterSeconds).toBe(retryAfter);

    // Regular mode does not need the avatar.
    expect((await client.createJob({ brandId, mode: "regular", script: SCRIPT })).status).toBe(202);
  });
});

describe("provider_unavailable (a server whose ffmpeg is missing)", () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ env: { FFMPEG_PATH: "/nonexistent/ffmpeg", VIDEO_MONTHLY_QUOTA: "1" } });
  });
  afterAll(() => server?.stop());

  it("answers 503, retryable, creates no job and counts nothing", async () => {
    const client = videoClient(server.url, (await newUser(server.url)).token);
    const brandId = await client.newBrand();
    for (let i = 0; i < 2; i++) {
      const response = await client.createJob({ brandId, mode: "regular", script: SCRIPT });
      expect(response.status).toBe(503);
      expect(response.body.error).toMatchObject({ code: "provider_unavailable", retryable: true });
    }
    const listed = videoJobPage.parse((await client.call(`/api/video/jobs?brandId=${brandId}`)).body);
    expect(listed.items).toEqual([]);
  });

  it("still gives quota_exceeded first when the quota is used up (checks run in the contract's order)", async () => {
    const client = videoClient(server.url, (await newUser(server.url)).token);
    const brandId = await client.newBrand({ monthlyVideoQuota: 0 });
    const response = await client.createJob({ brandId, mode: "regular", script: SCRIPT });
    expect(response.status).toBe(429);
    expect(response.body.error.code).toBe("quota_exceeded");
  });
});

describe("a render that keeps failing (a server whose ffmpeg answers -version but fails every render)", () => {
  let server: TestServer;
  let folder: string;

  beforeAll(async () => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), "bs-failing-ffmpeg-"));
    const ffmpeg = path.join(folder, "ffmpeg");
    fs.writeFileSync(
      ffmpeg,
      '#!/bin/sh\ncase " $* " in *" -version "*) exec ffmpeg "$@";; esac\necho "simulated render failure" >&2\nexit 1\n',
      { mode: 0o755 },
    );
    server = await startTestServer({ env: { FFMPEG_PATH: ffmpeg, VIDEO_MONTHLY_QUOTA: "1" } });
  });
  afterAll(async () => {
    await server?.stop();
    fs.rmSync(folder, { recursive: true, force: true });
  });

  it("is tried three times with backoff, then ends failed with generation_failed and gives its unit back", async () => {
    const client = videoClient(server.url, (await newUser(server.url)).token);
    const brandId = await client.newBrand();
    const response = await client.createJob({ brandId, mode: "regular", script: SCRIPT });
    expect(response.status).toBe(202);
    const { jobId } = response.body;
    const { job } = await client.pollJob(jobId, (j) => j.status === "failed", 60_000);
    expect(job).toMatchObject({ status: "failed", videoUrl: null, estimatedSeconds: null });
    expect(job.error).toMatchObject({ code: "generation_failed", retryable: true });
    expect(job.error?.message).toMatch(/after 3 attempts/);
    expect(job.finishedAt).not.toBeNull();

    const attempts = server
      .logs()
      .split("\n")
      .filter((line) => line.includes('"video_job_attempt_failed"') && line.includes(jobId))
      .map((line) => JSON.parse(line));
    expect(attempts.map((line) => line.attempt)).toEqual([1, 2, 3]);
    const times = attempts.map((line) => Date.parse(line.time));
    // Backoff: at least 2 s before the second attempt, and longer before the third.
    expect(times[1] - times[0]).toBeGreaterThanOrEqual(1900);
    expect(times[2] - times[1]).toBeGreaterThanOrEqual(times[1] - times[0] - 1000);

    // The failed job gave its unit back: with a quota of 1, another job is accepted.
    await waitFor(
      async () => (await client.createJob({ brandId, mode: "regular", script: SCRIPT })).status === 202,
      {
        timeoutMs: 5000,
        what: "the quota unit to come back",
      },
    );
  });
});
