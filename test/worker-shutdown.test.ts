import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newUser } from "./support/auth";
import { startTestServer, type TestServer } from "./support/test-server";
import { SCRIPT, videoClient } from "./support/video-api";
import { ffmpegPidsFor, LONG_SCRIPT, waitFor } from "./support/video-media";
import { startWorkerProcess, type WorkerProcess } from "./support/video-worker-process";

const onPostgres = Boolean(process.env.DATABASE_URL);
/** The heartbeat after which pg-boss would hand a dead worker's job to another (lib/video/video-queue.ts). */
const HEARTBEAT_SECONDS = 10;

// Worker processes need PostgreSQL (PGlite is one process), so this runs in the PostgreSQL pass.
describe.skipIf(!onPostgres)("a worker stopped with SIGTERM (started with node directly)", () => {
  let server: TestServer;
  let client: ReturnType<typeof videoClient>;
  let brandId: string;
  let sql: postgres.Sql;
  const workers: WorkerProcess[] = [];

  async function startWorker(env: Record<string, string> = {}) {
    const worker = startWorkerProcess({ DATABASE_URL: server.databaseUrl, DATA_DIR: server.dataDir, ...env });
    workers.push(worker);
    await waitFor(() => worker.events("worker_ready").length > 0, { what: "the worker to start" });
    return worker;
  }
  const eventsFor = (worker: WorkerProcess, event: string, jobId: string) =>
    worker.events(event).filter((line) => line.jobId === jobId);

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

  it("gives a render it cannot finish within the grace back to the queue; another worker takes it at once and it succeeds once", async () => {
    const first = await startWorker({ WORKER_SHUTDOWN_GRACE_SECONDS: "1" });
    const response = await client.createJob({ brandId, mode: "regular", script: LONG_SCRIPT });
    expect(response.status).toBe(202);
    const { jobId } = response.body;
    // Freeze the render mid-way, so it cannot finish within the grace however fast this machine is (the
    // worker's abort sends SIGKILL, which a stopped process still dies of).
    const pids = await waitFor(() => ffmpegPidsFor(jobId).length > 0 && ffmpegPidsFor(jobId), {
      intervalMs: 20,
      what: "the job's ffmpeg process",
    });
    for (const pid of pids) process.kill(pid, "SIGSTOP");
    const second = await startWorker();

    const signalledAt = Date.now();
    first.child.kill("SIGTERM");
    expect(await first.exited, first.logs()).toBe(0);
    expect(eventsFor(first, "video_job_stopped", jobId)).toHaveLength(1);
    expect(eventsFor(first, "video_job_succeeded", jobId)).toHaveLength(0);

    const { job } = await client.pollJob(
      jobId,
      (j) => j.status === "succeeded" || j.status === "failed",
      150_000,
    );
    expect(job.status).toBe("succeeded");
    const [started] = eventsFor(second, "video_job_started", jobId);
    expect(started).toMatchObject({ attempt: 2 });
    expect(eventsFor(second, "video_job_succeeded", jobId)).toHaveLength(1);
    // Handed over, not found dead: the second worker began before a heartbeat timeout could have freed it.
    expect(Date.parse(String(started.time)) - signalledAt).toBeLessThan(HEARTBEAT_SECONDS * 1000);

    const [row] = await sql`select attempts, queue_job_id from video_jobs where id = ${jobId}`;
    expect(row.attempts).toBe(2);
    const [queued] = await sql`select state, retry_count from pgboss.job where id = ${row.queue_job_id}`;
    expect(queued).toMatchObject({ state: "completed", retry_count: 1 });
    await second.stop();
  }, 240_000);

  it("finishes a render it can finish within the grace, then exits", async () => {
    const worker = await startWorker({ WORKER_SHUTDOWN_GRACE_SECONDS: "120" });
    const response = await client.createJob({ brandId, mode: "regular", script: SCRIPT });
    const { jobId } = response.body;
    await client.pollJob(jobId, (job) => job.status === "running");

    worker.child.kill("SIGTERM");
    expect(await worker.exited, worker.logs()).toBe(0);
    expect(eventsFor(worker, "video_job_succeeded", jobId)).toHaveLength(1);
    const job = await client.getJob(jobId);
    expect(job.status).toBe("succeeded");
    const [row] = await sql`select attempts from video_jobs where id = ${jobId}`;
    expect(row.attempts).toBe(1);
  }, 240_000);
});
