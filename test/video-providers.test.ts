import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newUser } from "./support/auth";
import { startFakeDid } from "./support/fake-did";
import { startFakeHeygen } from "./support/fake-heygen";
import type { FakeServer } from "./support/fake-provider-kit";
import { makeImage } from "./support/images";
import { startTestServer, type TestServer } from "./support/test-server";
import { SCRIPT, videoClient } from "./support/video-api";
import { ffprobe, waitFor } from "./support/video-media";
import { startWorkerProcess, type WorkerProcess } from "./support/video-worker-process";

/**
 * The hosted providers end to end: a real `next start` whose worker drives the real HeyGen and D-ID
 * adapters over HTTP against local servers that speak the providers' documented APIs.
 */

type Fake = FakeServer & { apiKey: string; setWebhookUrl?: (url: string | null) => void };

const PROVIDERS = {
  heygen: {
    label: "HeyGen",
    start: () => startFakeHeygen(),
    env: (fake: Fake) => ({
      HEYGEN_API_KEY: fake.apiKey,
      HEYGEN_BASE_URL: fake.url,
      HEYGEN_UPLOAD_BASE_URL: fake.url,
    }),
    uploadPath: "/v1/talking_photo",
    submitPath: "/v2/video/generate",
  },
  did: {
    label: "D-ID",
    start: () => startFakeDid(),
    env: (fake: Fake) => ({ DID_API_KEY: fake.apiKey, DID_BASE_URL: fake.url }),
    uploadPath: "/images",
    submitPath: "/talks",
  },
} as const;

describe.each(Object.keys(PROVIDERS) as (keyof typeof PROVIDERS)[])("VIDEO_PROVIDER=%s", (name) => {
  const provider = PROVIDERS[name];
  let fake: Fake;
  let server: TestServer;
  let client: ReturnType<typeof videoClient>;
  let brandId: string;

  beforeAll(async () => {
    fake = await provider.start();
    server = await startTestServer({
      env: {
        VIDEO_PROVIDER: name,
        ...provider.env(fake),
        PROVIDER_POLL_INTERVAL_MS: "200",
        PROVIDER_BREAKER_THRESHOLD: "3",
        PROVIDER_BREAKER_COOLDOWN_SECONDS: "3",
      },
    });
    fake.setWebhookUrl?.(`${server.url}/api/webhooks/providers/${name}`);
    client = videoClient(server.url, (await newUser(server.url)).token);
    brandId = await client.newBrand();
    const form = new FormData();
    form.append(
      "file",
      new Blob([new Uint8Array(await makeImage({ format: "jpeg" }))], { type: "image/jpeg" }),
      "me.jpg",
    );
    expect((await client.call(`/api/brands/${brandId}/avatar`, { method: "POST", body: form })).status).toBe(
      202,
    );
    await waitFor(async () => (await client.call(`/api/brands/${brandId}`)).body.avatarStatus === "ready", {
      what: "the avatar to be uploaded to the provider",
    });
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
    await fake?.close();
  });

  it("uploads the avatar photo to the provider when the avatar is trained", () => {
    const uploads = fake.requests.filter((r) => r.method === "POST" && r.path === provider.uploadPath);
    expect(uploads.map((r) => r.status)).toEqual([name === "did" ? 201 : 200]);
  });

  it("makes an avatar video from 202 to succeeded, and serves it from our own media URL", async () => {
    const before = fake.submits();
    const response = await client.createJob({ brandId, mode: "avatar", script: SCRIPT });
    expect(response.status).toBe(202);
    const { job, seen } = await client.pollJob(
      response.body.jobId,
      (j) => j.status === "succeeded" || j.status === "failed",
    );
    expect(job.status, JSON.stringify(job.error)).toBe("succeeded");
    expect(seen.some((j) => j.status === "running")).toBe(true);
    expect(fake.submits()).toBe(before + 1);
    // Ours, never the provider's expiring link.
    expect(job.videoUrl).toMatch(/^\/media\/videos\//);
    expect(job.videoUrl).not.toContain(fake.url);
    expect(job.durationSeconds).toBe(2);

    const media = await fetch(`${server.url}${job.videoUrl}`);
    expect(media.status).toBe(200);
    expect(media.headers.get("content-type")).toBe("video/mp4");
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "bs-provider-")), "video.mp4");
    fs.writeFileSync(file, Buffer.from(await media.arrayBuffer()));
    const probe = await ffprobe(file);
    expect(probe.streams.map((s) => s.codec_name).sort()).toEqual(["aac", "h264"]);
    const poster = await fetch(`${server.url}${job.thumbnailUrl}`);
    expect(poster.headers.get("content-type")).toBe("image/jpeg");
  });

  it("takes provider webhooks only as hints: a premature or forged event sets no result", async () => {
    const hook = (body: unknown) =>
      fetch(`${server.url}/api/webhooks/providers/${name}`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
    const claim = (id: string) =>
      name === "heygen"
        ? {
            event_type: "avatar_video.success",
            event_data: { video_id: id, url: "https://evil.example/x.mp4" },
          }
        : { id, status: "done", result_url: "https://evil.example/x.mp4" };

    fake.behavior.renderMs = 8000;
    const before = fake.submits();
    const response = await client.createJob({ brandId, mode: "avatar", script: SCRIPT });
    await waitFor(() => fake.submits() === before + 1, { what: "the submit" });
    const providerJobId = fake.lastJobId();
    // The provider has not finished; a webhook that says it has changes nothing, however often it comes.
    await waitFor(
      async () => {
        const answer = await hook(claim(providerJobId as string));
        expect(answer.status).toBe(202);
        return (await answer.json()).jobId === response.body.jobId;
      },
      { what: "the webhook to find the job by its provider id" },
    );
    for (let i = 0; i < 2; i++) {
      const answer = await hook(claim(providerJobId as string));
      expect(await answer.json()).toEqual({ received: true, jobId: response.body.jobId });
    }
    expect((await client.getJob(response.body.jobId)).status).toBe("running");
    const { job } = await client.pollJob(
      response.body.jobId,
      (j) => j.status === "succeeded" || j.status === "failed",
    );
    expect(job.status).toBe("succeeded");
    expect(job.videoUrl).toMatch(/^\/media\//);
    fake.behavior.renderMs = 1500;

    expect(await (await hook(claim("unknown-id"))).json()).toEqual({ received: true, jobId: null });
    const broken = await fetch(`${server.url}/api/webhooks/providers/${name}`, {
      method: "POST",
      body: "{not json",
    });
    expect(broken.status).toBe(400);
    expect(
      (await fetch(`${server.url}/api/webhooks/providers/synthesia`, { method: "POST", body: "{}" })).status,
    ).toBe(404);
  });

  it("ends failed with the provider's reason when the provider fails the job", async () => {
    fake.behavior.failNext = "No face was found in the photo";
    const response = await client.createJob({ brandId, mode: "avatar", script: SCRIPT });
    expect(response.status).toBe(202);
    const { job } = await client.pollJob(
      response.body.jobId,
      (j) => j.status === "succeeded" || j.status === "failed",
    );
    expect(job.status).toBe("failed");
    expect(job.error?.code).toBe("generation_failed");
    expect(job.error?.message).toContain(
      `${provider.label} could not make this video: No face was found in the photo`,
    );
    expect(job.videoUrl).toBeNull();
  });

  it("waits for Retry-After when the provider answers 429, then submits once", async () => {
    fake.behavior.rateLimit = { count: 1, retryAfterSeconds: 2 };
    const before = fake.submits();
    const response = await client.createJob({ brandId, mode: "avatar", script: SCRIPT });
    const { job } = await client.pollJob(
      response.body.jobId,
      (j) => j.status === "succeeded" || j.status === "failed",
    );
    expect(job.status).toBe("succeeded");
    expect(fake.submits()).toBe(before + 1);
    const submits = fake.requests.filter((r) => r.method === "POST" && r.path === provider.submitPath);
    const limited = submits.findLast((r) => r.status === 429);
    const accepted = submits.findLast((r) => r.status < 300);
    expect(limited).toBeDefined();
    expect(accepted && limited && accepted.at - limited.at).toBeGreaterThanOrEqual(2000);
  });

  it("opens the circuit breaker during an outage (503 provider_unavailable, health degraded), then closes it", async () => {
    fake.behavior.outage = true;
    const first = await client.createJob({ brandId, mode: "avatar", script: SCRIPT });
    expect(first.status).toBe(202);
    // The worker's submits hit the outage; after three 5xx answers the breaker opens.
    const refused = await waitFor(
      async () => {
        const response = await client.createJob({ brandId, mode: "avatar", script: SCRIPT });
        return response.status === 503 ? response : null;
      },
      { timeoutMs: 60_000, intervalMs: 500, what: "the breaker to open" },
    );
    expect(refused.body.error).toMatchObject({ code: "provider_unavailable", retryable: true });
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    const degraded = await client.call("/api/health");
    expect(degraded.body.checks).toMatchObject({ video: name, videoStatus: "degraded" });
    // Regular videos do not need the hosted provider and still go through.
    expect((await client.createJob({ brandId, mode: "regular", script: SCRIPT })).status).toBe(202);

    fake.behavior.outage = false;
    const accepted = await waitFor(
      async () => {
        const response = await client.createJob({ brandId, mode: "avatar", script: SCRIPT });
        return response.status === 202 ? response : null;
      },
      { timeoutMs: 30_000, intervalMs: 500, what: "the breaker to half-open" },
    );
    const { job } = await client.pollJob(
      accepted.body.jobId,
      (j) => j.status === "succeeded" || j.status === "failed",
    );
    expect(job.status).toBe("succeeded");
    const healthy = await client.call("/api/health");
    expect(healthy.body.checks.videoStatus).toBe("ok");
  }, 150_000);
});

// Separate worker processes need PostgreSQL (PGlite is one process); this runs in the PostgreSQL pass.
describe.skipIf(!process.env.DATABASE_URL)("a worker killed between submit and finish", () => {
  let fake: Awaited<ReturnType<typeof startFakeHeygen>>;
  let server: TestServer;
  let sql: postgres.Sql;
  const workers: WorkerProcess[] = [];
  const providerEnv = () => ({
    VIDEO_PROVIDER: "heygen",
    ...PROVIDERS.heygen.env(fake),
    PROVIDER_POLL_INTERVAL_MS: "200",
  });

  async function startWorker() {
    const worker = startWorkerProcess({
      DATABASE_URL: server.databaseUrl,
      DATA_DIR: server.dataDir,
      ...providerEnv(),
    });
    workers.push(worker);
    await waitFor(() => worker.events("worker_ready").length > 0, { what: "the worker to start" });
    return worker;
  }

  beforeAll(async () => {
    fake = await startFakeHeygen();
    server = await startTestServer({ env: { WORKER: "off", ...providerEnv() } });
    sql = postgres(server.databaseUrl as string, { max: 1, onnotice: () => {} });
  }, 120_000);
  afterAll(async () => {
    await Promise.all(workers.map((worker) => worker.stop()));
    await sql?.end();
    await server?.stop();
    await fake?.close();
  });

  it("resumes polling the stored provider id: the provider sees one submit, and the job succeeds", async () => {
    const first = await startWorker();
    const client = videoClient(server.url, (await newUser(server.url)).token);
    const brandId = await client.newBrand();
    const form = new FormData();
    form.append(
      "file",
      new Blob([new Uint8Array(await makeImage({ format: "png" }))], { type: "image/png" }),
      "me.png",
    );
    expect((await client.call(`/api/brands/${brandId}/avatar`, { method: "POST", body: form })).status).toBe(
      202,
    );
    await waitFor(async () => (await client.call(`/api/brands/${brandId}`)).body.avatarStatus === "ready", {
      what: "the avatar",
    });

    fake.behavior.renderMs = 20_000;
    const response = await client.createJob({ brandId, mode: "avatar", script: SCRIPT });
    expect(response.status).toBe(202);
    const { jobId } = response.body;
    const [stored] = await waitFor(
      async () => {
        const rows = await sql`select provider, provider_job_id from video_jobs where id = ${jobId}`;
        return rows[0]?.provider_job_id ? rows : null;
      },
      { what: "the provider id to be stored" },
    );
    expect(stored.provider).toBe("heygen");
    expect(fake.submits()).toBe(1);

    first.child.kill("SIGKILL");
    await first.exited;
    const second = await startWorker();
    const { job } = await client.pollJob(
      jobId,
      (j) => j.status === "succeeded" || j.status === "failed",
      150_000,
    );
    expect(job.status, JSON.stringify(job.error)).toBe("succeeded");
    expect(fake.submits()).toBe(1);
    expect(second.events("video_provider_resumed").filter((e) => e.jobId === jobId)).toEqual([
      expect.objectContaining({ providerJobId: stored.provider_job_id }),
    ]);
    const media = await fetch(`${server.url}${job.videoUrl}`);
    expect(media.status).toBe(200);
  }, 200_000);
});
