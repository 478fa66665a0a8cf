import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { allocatorEnv } from "../scripts/allocator.mjs";
import {
  createTestDatabase,
  freePort,
  runDbMigrate,
  TEST_DIST_DIR,
  waitForHealth,
} from "../test/support/test-server";
import { startWorkerProcess, type WorkerProcess } from "../test/support/video-worker-process";

export const ROOT = path.resolve(__dirname, "..");
const BASELINE_SOURCE = path.join(ROOT, "bench", "baseline-next");
/**
 * The baseline is built outside the repository: inside it, Turbopack also bundles our instrumentation.ts
 * into the baseline. It gets a node_modules link to ours, and Turbopack's root is the filesystem root.
 */
export const BASELINE_DIR = path.join(os.tmpdir(), "brand-studio-bench-baseline");

function stageBaseline() {
  fs.mkdirSync(BASELINE_DIR, { recursive: true });
  fs.cpSync(BASELINE_SOURCE, BASELINE_DIR, { recursive: true, preserveTimestamps: true });
  fs.writeFileSync(
    path.join(BASELINE_DIR, "package.json"),
    JSON.stringify({ name: "brand-studio-bench-baseline", private: true }),
  );
  // The baseline must resolve this checkout's React and Next (a link left by another checkout gives two).
  const link = path.join(BASELINE_DIR, "node_modules");
  const target = path.join(ROOT, "node_modules");
  const current = fs.lstatSync(link, { throwIfNoEntry: false });
  if (current?.isSymbolicLink() && fs.readlinkSync(link) !== target) fs.unlinkSync(link);
  if (!fs.lstatSync(link, { throwIfNoEntry: false })) fs.symlinkSync(target, link, "dir");
}
const NEXT_BIN = path.join(ROOT, "node_modules/next/dist/bin/next");

export type Running = { name: string; url: string; pid: number; stop: () => Promise<void> };

/** The pid of the process listening on a port (`next start` may serve from a child of the one we spawned). */
export function listenerPid(port: number, fallback: number) {
  try {
    const out = execFileSync("sh", [
      "-c",
      `ss -ltnpH 'sport = :${port}' | grep -o 'pid=[0-9]*' | head -n1 | cut -d= -f2`,
    ])
      .toString()
      .trim();
    return out ? Number(out) : fallback;
  } catch {
    return fallback;
  }
}

function stopper(child: ChildProcess, after?: () => Promise<void>) {
  return async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
      await exited;
      clearTimeout(timer);
    }
    await after?.();
  };
}

/** The newest modification time among the sources a build depends on. */
function newestSource(cwd: string) {
  let newest = 0;
  const visit = (target: string) => {
    if (!fs.existsSync(target)) return;
    const stat = fs.statSync(target);
    if (stat.isDirectory()) {
      for (const entry of fs.readdirSync(target))
        if (entry !== "node_modules") visit(path.join(target, entry));
    } else newest = Math.max(newest, stat.mtimeMs);
  };
  for (const entry of [
    "app",
    "components",
    "lib",
    "db",
    "content",
    "instrumentation.ts",
    "proxy.ts",
    "next.config.ts",
    "next.config.mjs",
    "package-lock.json",
  ])
    visit(path.join(cwd, entry));
  return newest;
}

/**
 * Builds what the bench needs: the app (into .next-test, as the HTTP tests use) and the baseline app,
 * each unless a build newer than its sources is there already.
 */
export function buildAll(rebuild: boolean) {
  const build = (cwd: string, distDir: string, env: Record<string, string>) => {
    const buildId = path.join(distDir, "BUILD_ID");
    if (!rebuild && fs.existsSync(buildId) && fs.statSync(buildId).mtimeMs > newestSource(cwd)) return;
    console.log(`bench: building ${cwd === ROOT ? "the app" : "the baseline"} in ${cwd} …`);
    execFileSync(process.execPath, [NEXT_BIN, "build"], {
      cwd,
      stdio: ["ignore", "inherit", "inherit"],
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", ...env },
    });
  };
  build(ROOT, path.join(ROOT, TEST_DIST_DIR), { NEXT_DIST_DIR: TEST_DIST_DIR });
  stageBaseline();
  build(BASELINE_DIR, path.join(BASELINE_DIR, ".next"), {});
}

/** A bare node:http server answering constant JSON, in a process of its own. */
export async function startBareNode(): Promise<Running> {
  const port = await freePort();
  const source = `require("node:http").createServer((req, res) => {
    res.writeHead(200, { "content-type": "application/json", "cache-control": "no-store" });
    res.end('{"ok":true,"status":"succeeded","progress":100}');
  }).listen(${port}, "127.0.0.1");`;
  const child = spawn(process.execPath, ["-e", source], { stdio: "ignore" });
  const url = `http://127.0.0.1:${port}`;
  await waitFor(url, child);
  return { name: "node:http", url, pid: child.pid as number, stop: stopper(child) };
}

/**
 * The trivial Next 16 app (bench/baseline-next): one page, one constant-JSON route handler, and the draft
 * routes that only ask the model at `BENCH_MODEL_URL` (given in `env`).
 */
export async function startBaselineNext(env: Record<string, string> = {}): Promise<Running> {
  const port = await freePort();
  const child = spawn(process.execPath, [NEXT_BIN, "start", "-p", String(port)], {
    cwd: BASELINE_DIR,
    env: { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1", NEXT_DIST_DIR: "", ...env },
    stdio: "ignore",
  });
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`${url}/api/bench`, child);
  return { name: "trivial Next", url, pid: listenerPid(port, child.pid as number), stop: stopper(child) };
}

async function waitFor(url: string, child: ChildProcess, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${url}: the process exited with ${child.exitCode}.`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${url} did not answer in ${timeoutMs} ms.`);
}

export type AppServer = Running & {
  databaseUrl?: string;
  dataDir: string;
  cpuProfileDir?: string;
  logs: () => string;
};

/**
 * Brand Studio's production build on PGlite (no databaseUrl) or on a fresh PostgreSQL database.
 * `worker: "off"` leaves rendering to a separate `npm run worker` process (startWorker).
 */
export async function startApp(options: {
  name: string;
  postgresUrl?: string;
  worker?: "inline" | "off";
  cpuProfile?: boolean;
  /** More environment, e.g. the OTLP endpoint for the tracing-on server. */
  env?: Record<string, string>;
  /** Another checkout with its own .next-test build (an older commit, for a before/after in one run). */
  root?: string;
}): Promise<AppServer> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bs-bench-"));
  const database = options.postgresUrl ? await createTestDatabase(options.postgresUrl) : undefined;
  const cpuProfileDir = options.cpuProfile ? fs.mkdtempSync(path.join(os.tmpdir(), "bs-prof-")) : undefined;
  const env = {
    PORT: String(port),
    DATA_DIR: dataDir,
    DATABASE_URL: database?.url ?? "",
    AUTH_SECRET: `bench-secret-${randomBytes(16).toString("hex")}`,
    NEXTAUTH_URL: `http://127.0.0.1:${port}`,
    SEED_DEMO: "true",
    WORKER: options.worker ?? "inline",
    RATE_LIMIT_GENERATE_PER_MINUTE: "100000",
    RATE_LIMIT_VIDEO_PER_MINUTE: "100000",
    RATE_LIMIT_IMAGE_PER_MINUTE: "100000",
    VIDEO_MONTHLY_QUOTA: "100000",
    // The allocator scripts/start.mjs and the image give the server (the bench starts `next start` itself, for
    // --cpu-prof).
    ...allocatorEnv(process.env),
    ...options.env,
  };
  // PostgreSQL is migrated as a deploy does it (`npm run db:migrate`); a production server migrates only PGlite.
  if (database) {
    const migrated = await runDbMigrate({ ...env, NODE_ENV: "production" });
    if (migrated.code !== 0) {
      await database.drop();
      throw new Error(`npm run db:migrate failed:\n${migrated.output}`);
    }
  }
  // Like the tests' spawnNext, plus node's own flags (--cpu-prof is not allowed in NODE_OPTIONS).
  const child = spawn(
    process.execPath,
    [
      ...(cpuProfileDir ? ["--cpu-prof", `--cpu-prof-dir=${cpuProfileDir}`] : []),
      NEXT_BIN,
      "start",
      "-p",
      String(port),
    ],
    {
      cwd: options.root ?? ROOT,
      env: { ...process.env, NEXT_DIST_DIR: TEST_DIST_DIR, NEXT_TELEMETRY_DISABLED: "1", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  child.stdout?.on("data", (chunk) => {
    output += chunk;
  });
  child.stderr?.on("data", (chunk) => {
    output += chunk;
  });
  const url = `http://127.0.0.1:${port}`;
  const stop = stopper(child, async () => {
    await database?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  try {
    await waitForHealth(url, child);
  } catch (error) {
    await stop();
    throw new Error(`${(error as Error).message}\n--- server output ---\n${output}`);
  }
  return {
    name: options.name,
    url,
    pid: listenerPid(port, child.pid as number),
    databaseUrl: database?.url,
    dataDir,
    cpuProfileDir,
    logs: () => output,
    stop,
  };
}

/** A separate `npm run worker` process for an app on PostgreSQL. */
export async function startWorker(app: AppServer): Promise<WorkerProcess> {
  const worker = startWorkerProcess({
    DATABASE_URL: app.databaseUrl,
    DATA_DIR: app.dataDir,
    WORKER: "inline",
    VIDEO_MONTHLY_QUOTA: "100000",
  });
  const deadline = Date.now() + 60_000;
  while (worker.events("worker_ready").length === 0) {
    if (Date.now() > deadline || worker.child.exitCode !== null)
      throw new Error(`The worker did not start:\n${worker.logs()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return worker;
}

/**
 * An OTLP/HTTP receiver that accepts every export (what a collector on the same machine costs the app: the
 * export's serialisation and a local round trip, no storage), counting the export requests it got.
 */
export async function startTraceSink(): Promise<Running & { exports: () => number; bytes: () => number }> {
  let exports = 0;
  let bytes = 0;
  const server = http.createServer((req, res) => {
    req.on("data", (chunk: Buffer) => {
      bytes += chunk.length;
    });
    req.on("end", () => {
      if (req.url === "/v1/traces") exports += 1;
      res.writeHead(200, { "content-type": "application/x-protobuf" }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    name: "OTLP sink",
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    pid: process.pid,
    exports: () => exports,
    bytes: () => bytes,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
