import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { videoJobPage } from "@/lib/contracts/video";
import { newUser } from "./support/auth";
import { makeImage } from "./support/images";
import { startTestServer, type TestServer } from "./support/test-server";
import { SCRIPT, videoClient } from "./support/video-api";

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
