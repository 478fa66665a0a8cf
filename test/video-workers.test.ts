import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newUser } from "./support/auth";
import { startTestServer, type TestServer } from "./support/test-server";
import { videoClient } from "./support/video-api";
import { ffmpegPidsFor, ffprobe, isAlive, LONG_SCRIPT, waitFor } from "./support/video-media";
import { startWorkerProcess, type WorkerProcess } from "./support/video-worker-process";

const onPostgres = Boolean(process.env.DATABASE_URL);

describe("npm run worker", () => {
  it("refuses to start on the embedded database, and says why", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bs-worker-"));
    const worker = startWorkerProcess({ DATABASE_URL: "", DATA_DIR: dataDir });
    expect(await worker.exited).toBe(1);
    expect(worker.logs()).toMatch(/npm run worker needs PostgreSQL: set DATABASE_URL/);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
});

// Several processes need PostgreSQL: PGlite is one process, so with it the worker runs inside the web
// process and these tests are skipped (they run in the PostgreSQL pass of `npm test` and CI).
describe.skipIf(!onPostgres)("worker processes on PostgreSQL", () => {
  let server: TestServer;
  let client: ReturnType<typeof videoClient>;
  let brandId: string;
  let sql: postgres.Sql;
  const workers: WorkerProcess[] = [];

  async function startWorker() {
    const worker = startWorkerProcess({ DATABASE_URL: server.databaseUrl, DATA_DIR: server.dataDir });
    workers.push(worker);
    await waitFor(() => worker.events("worker_ready").length > 0, { what: "the worker to start" });
    return worker;
  }
  const startedJobs = (worker: WorkerProcess, jobId: string) =>
    worker.events("video_job_started").filter((event) => event.jobId === jobId);
  const succeededJobs = (worker: WorkerProcess, jobId: string) =>
    worker.events("video_job_succeeded").filter((event) => event.jobId === jobId);

  beforeAll(async () => {
    server = await startTestServer({ env: { WORKER: "off" } });
    client = videoClient(server.url, (await newUser(server.url)).token);
    brandId = await client.newBrand();
    sql = postgres(server.databaseUrl as string, { max: 1, onnotice: () => {} });
  });
  afterAll(async () => {
    await Promise.all(workers.map((worker) => worker.stop()));
    await sql?.end();
    await server?.stop();
  });

  it("takes up again a job whose worker was killed with SIGKILL mid-render, and finishes it exactly once", async () => {
    const first = await startWorker();
    const response = await client.createJob({ brandId, mode: "regular", script: LONG_SCRIPT });
    expect(response.status).toBe(202);
    const { jobId } = response.body;
    const orphans = await waitFor(() => ffmpegPidsFor(jobId).length > 0 && ffmpegPidsFor(jobId), {
      intervalMs: 20,
      what: "the job's ffmpeg process",
    });
    // Freeze the render mid-way (a fast machine could otherwise finish it before the kill), kill its worker,
    // then let ffmpeg run on: it finds its progress pipe broken.
    for (const pid of orphans) process.kill(pid, "SIGSTOP");
    const before = [await client.getJob(jobId)];
    expect(before[0].status).toBe("running");

    first.child.kill("SIGKILL");
    await first.exited;
    for (const pid of orphans) {
      try {
        process.kill(pid, "SIGCONT");
      } catch {}
    }
    // ffmpeg's progress pipe broke with its parent, so it does not render on as an orphan.
    await waitFor(() => orphans.every((pid) => !isAlive(pid)), {
      // Generous for a loaded CI machine: the claim is that it stops, not that it stops fast.
      timeoutMs: 30_000,
      what: "the orphaned ffmpeg to stop",
    });

    const second = await startWorker();
    const { job, seen: after } = await client.pollJob(
      jobId,
      (j) => j.status === "succeeded" || j.status === "failed",
      150_000,
    );
    expect(job.status).toBe("succeeded");
    const progress = [...before, ...after].map((j) => j.progress);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));

    // The worker logs its success just after the row says so: its line may still be on the way.
    await waitFor(() => succeededJobs(second, jobId).length > 0, {
      what: "the second worker's success line",
    });
    expect(succeededJobs(first, jobId)).toHaveLength(0);
    expect(startedJobs(second, jobId)).toEqual([expect.objectContaining({ attempt: 2 })]);
    expect(succeededJobs(second, jobId)).toHaveLength(1);
    const [row] = await sql`select attempts, queue_job_id from video_jobs where id = ${jobId}`;
    expect(row.attempts).toBe(2);
    const [queued] = await sql`select state, retry_count from pgboss.job where id = ${row.queue_job_id}`;
    expect(queued).toMatchObject({ state: "completed", retry_count: 1 });

    const file = path.join(server.dataDir, "media", "videos", jobId, "video.mp4");
    const probe = await ffprobe(file);
    expect(probe.streams.map((stream) => stream.codec_name).sort()).toEqual(["aac", "h264"]);
    await second.stop();
  }, 180_000);

  it("shares jobs between two worker processes, and runs each job once", async () => {
    const [a, b] = await Promise.all([startWorker(), startWorker()]);
    const created = await Promise.all(
      // Long enough that one worker cannot render all four before the other fetches (renders from stills
      // are quick, and LISTEN/NOTIFY wakes the first idle worker at once).
      Array.from({ length: 4 }, () => client.createJob({ brandId, mode: "regular", script: LONG_SCRIPT })),
    );
    const jobIds = created.map((response) => response.body.jobId as string);
    for (const jobId of jobIds) {
      const { job } = await client.pollJob(
        jobId,
        (j) => j.status === "succeeded" || j.status === "failed",
        120_000,
      );
      expect(job.status).toBe("succeeded");
      const succeeded = () => succeededJobs(a, jobId).length + succeededJobs(b, jobId).length;
      // The worker logs its success just after the row says so: its line may still be on the way.
      await waitFor(() => succeeded() > 0, { what: `a worker's success line for ${jobId}` });
      expect(startedJobs(a, jobId).length + startedJobs(b, jobId).length).toBe(1);
      expect(succeeded()).toBe(1);
    }
    expect(jobIds.some((jobId) => startedJobs(a, jobId).length > 0)).toBe(true);
    expect(jobIds.some((jobId) => startedJobs(b, jobId).length > 0)).toBe(true);
    const rows = await sql`select attempts from video_jobs where id in ${sql(jobIds)}`;
    expect(rows.map((row) => row.attempts)).toEqual([1, 1, 1, 1]);
  }, 180_000);
});
