import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newUser } from "./support/auth";
import { makeImage } from "./support/images";
import { type S3Server, startS3Server } from "./support/s3-server";
import { createTestDatabase, startTestServer, type TestServer } from "./support/test-server";
import { SCRIPT, videoClient } from "./support/video-api";
import { ffprobe, waitFor } from "./support/video-media";
import { startWorkerProcess, type WorkerProcess } from "./support/video-worker-process";

const onPostgres = Boolean(process.env.DATABASE_URL);

/**
 * A team's deployment on one machine: PostgreSQL (a fresh database), an S3-compatible store (s3rver),
 * two web processes (WORKER=off) and two worker processes, each with a data folder of its own as
 * separate hosts would have, so nothing can pass between them through a local disk. The processes run the
 * commands the containers run: `next start` and `node --import tsx worker/index.ts`.
 */
describe.skipIf(!onPostgres)(
  "several hosts on PostgreSQL and S3 (skipped on PGlite: one process only)",
  () => {
    let s3: S3Server;
    let database: Awaited<ReturnType<typeof createTestDatabase>>;
    let webA: TestServer;
    let webB: TestServer;
    const workers: WorkerProcess[] = [];
    const workerDirs: string[] = [];
    let onA: ReturnType<typeof videoClient>;
    let onB: ReturnType<typeof videoClient>;

    beforeAll(async () => {
      s3 = await startS3Server();
      database = await createTestDatabase(process.env.DATABASE_URL as string);
      const env = { ...s3.env, WORKER: "off" };
      // Every host shares the database and AUTH_SECRET (a token from A works on B), nothing else.
      const shared = {
        databaseUrl: database.url,
        authSecret: `test-secret-${randomBytes(16).toString("hex")}`,
      };
      webA = await startTestServer({ env, shared });
      webB = await startTestServer({ env, shared });
      for (let i = 0; i < 2; i++) {
        const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bs-host-worker-"));
        workerDirs.push(dataDir);
        const worker = startWorkerProcess({
          ...s3.env,
          DATABASE_URL: database.url,
          DATA_DIR: dataDir,
          AUTH_SECRET: webA.authSecret,
        });
        workers.push(worker);
      }
      for (const worker of workers) {
        await waitFor(() => worker.events("worker_ready").length > 0, { what: "a worker to start" });
      }
      const { token } = await newUser(webA.url);
      onA = videoClient(webA.url, token);
      onB = videoClient(webB.url, token);
    });

    afterAll(async () => {
      await Promise.all(workers.map((worker) => worker.stop()));
      await webA?.stop();
      await webB?.stop();
      await database?.drop();
      await s3?.stop();
      for (const dir of workerDirs) fs.rmSync(dir, { recursive: true, force: true });
    });

    const renderedBy = (jobId: string) =>
      workers.filter((worker) => worker.events("video_job_succeeded").some((event) => event.jobId === jobId))
        .length;

    async function fetchVideo(url: string) {
      const response = await fetch(url);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("video/mp4");
      const file = path.join(os.tmpdir(), `bs-host-${Date.now()}.mp4`);
      fs.writeFileSync(file, Buffer.from(await response.arrayBuffer()));
      try {
        return await ffprobe(file);
      } finally {
        fs.rmSync(file, { force: true });
      }
    }

    it("renders a job created on web A on a worker, and serves it through web B from the bucket", async () => {
      const brandId = await onA.newBrand();
      const created = await onA.createJob({ brandId, mode: "regular", script: SCRIPT });
      expect(created.status).toBe(202);
      const { job } = await onB.pollJob(
        created.body.jobId,
        (j) => j.status === "succeeded" || j.status === "failed",
        150_000,
      );
      expect(job.status).toBe("succeeded");
      // A worker logs its success just after the row says so: its line may still be on the way.
      await waitFor(() => renderedBy(job.jobId) > 0, { what: "a worker's success line" });
      expect(renderedBy(job.jobId)).toBe(1);

      // Web B hands out a presigned URL on the bucket: no host's disk holds the file.
      const url = new URL(job.videoUrl ?? "");
      expect(url.origin).toBe(s3.endpoint);
      expect(url.searchParams.get("X-Amz-Signature")).toMatch(/^[0-9a-f]{64}$/);
      const probe = await fetchVideo(url.toString());
      expect(probe.streams.map((stream) => stream.codec_name).sort()).toEqual(["aac", "h264"]);
      const range = await fetch(url, { headers: { Range: "bytes=0-99" } });
      expect(range.status).toBe(206);
      expect(range.headers.get("content-length")).toBe("100");
      for (const dir of [webA.dataDir, webB.dataDir, ...workerDirs]) {
        expect(fs.existsSync(path.join(dir, "media"))).toBe(false);
      }
    });

    it("trains an avatar uploaded on web A on a worker, and uses it in an avatar render served through web B", async () => {
      const brandId = await onA.newBrand({ primaryColor: "#3B2F2F" });
      const form = new FormData();
      form.append("file", new Blob([new Uint8Array(await makeImage())], { type: "image/png" }), "avatar.png");
      expect((await onA.call(`/api/brands/${brandId}/avatar`, { method: "POST", body: form })).status).toBe(
        202,
      );
      const ready = await waitFor(
        async () => {
          const brand = (await onB.call(`/api/brands/${brandId}`)).body;
          return brand.avatarStatus !== "training" && brand;
        },
        { timeoutMs: 60_000, what: "the avatar to be trained" },
      );
      expect(ready.avatarStatus).toBe("ready");
      // The worker logs it just after the brand's row says ready.
      await waitFor(() => workers.some((worker) => worker.events("avatar_training_ready").length > 0), {
        what: "a worker's avatar_training_ready line",
      });
      const frame = await fetch(ready.avatarFrameUrl);
      expect(frame.status).toBe(200);
      expect(await sharp(Buffer.from(await frame.arrayBuffer())).metadata()).toMatchObject({ width: 512 });

      const created = await onA.createJob({ brandId, mode: "avatar", script: SCRIPT });
      expect(created.status).toBe(202);
      const { job } = await onB.pollJob(
        created.body.jobId,
        (j) => j.status === "succeeded" || j.status === "failed",
        150_000,
      );
      expect(job).toMatchObject({ status: "succeeded", mode: "avatar" });
      // The avatar's white disc sits right of centre, where a regular video shows only the brand colour.
      const poster = Buffer.from(await (await fetch(job.thumbnailUrl ?? "")).arrayBuffer());
      const { data, info } = await sharp(poster).raw().toBuffer({ resolveWithObject: true });
      const offset = (Math.round(info.height / 2) * info.width + (info.width - 70 - 220)) * info.channels;
      expect([data[offset], data[offset + 1], data[offset + 2]].every((channel) => channel > 200)).toBe(true);
      const probe = await fetchVideo(job.videoUrl ?? "");
      expect(probe.streams.map((stream) => stream.codec_name).sort()).toEqual(["aac", "h264"]);
    });
  },
);
