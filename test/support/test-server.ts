import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";

export const TEST_DIST_DIR = ".next-test";
const ROOT = path.resolve(__dirname, "..", "..");

export type TestServer = {
  url: string;
  /** The `next start` process. */
  child: ChildProcess;
  authSecret: string;
  dataDir: string;
  databaseUrl?: string;
  /** The server's process id (its /proc/<pid>/status holds its memory use). */
  pid: number;
  /** Everything the server printed so far (stdout and stderr). */
  logs: () => string;
  /** SIGTERM (SIGKILL after 5 s), then drops its database and removes its data folder unless `keepDataDir`. */
  stop: (options?: { keepDataDir?: boolean }) => Promise<void>;
};

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Where `prepareDatabaseTemplate` names its database for the test processes of this run. */
const PG_TEMPLATE_ENV = "BRAND_STUDIO_TEST_PG_TEMPLATE";

/**
 * A fresh PostgreSQL database for one server, when the run targets PostgreSQL (DATABASE_URL is set): a copy
 * of the run's migrated template when there is one (`migrated`), else empty (`fresh`, or no template).
 */
export async function createTestDatabase(baseUrl: string, { fresh = false } = {}) {
  const name = `bs_test_${randomBytes(6).toString("hex")}`;
  const template = fresh ? undefined : process.env[PG_TEMPLATE_ENV];
  const admin = postgres(baseUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}${template ? ` template ${template}` : ""}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    migrated: Boolean(template),
    drop: async () => {
      const cleanup = postgres(baseUrl, { max: 1, onnotice: () => {} });
      await cleanup.unsafe(`drop database if exists ${name} with (force)`).catch(() => {});
      await cleanup.end();
    },
  };
}

export async function waitForHealth(url: string, child: ChildProcess, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The server exited with code ${child.exitCode}.`);
    try {
      const response = await fetch(`${url}/api/health`);
      if (response.ok) return;
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`The server at ${url} did not become healthy in ${timeoutMs} ms.`);
}

/** Waits until the server answers anything at all (any status). */
export async function waitForListening(url: string, child: ChildProcess, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The server exited with code ${child.exitCode}.`);
    const answered = await fetch(`${url}/api/health`).then(
      () => true,
      () => false,
    );
    if (answered) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`The server at ${url} did not answer in ${timeoutMs} ms.`);
}

/** `npm start` as a deploy runs it (scripts/start.mjs: the configuration check, then `next start`), as plain node. */
export function spawnNext(port: number, env: Record<string, string | undefined>) {
  return spawn(process.execPath, [path.join(ROOT, "scripts/start.mjs"), "-p", String(port)], {
    cwd: ROOT,
    // NODE_ENV as `next start` sets it when a deploy leaves it unset (Vitest's own process says "test").
    env: {
      ...process.env,
      NODE_ENV: "production",
      NEXT_DIST_DIR: TEST_DIST_DIR,
      NEXT_TELEMETRY_DISABLED: "1",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
}

/**
 * `npm run db:migrate` (scripts/db-migrate.ts) in its own process, the deploy's one-shot step. Resolves
 * with the exit code and what it printed.
 */
export function runDbMigrate(env: Record<string, string | undefined>) {
  const child = spawn(
    process.execPath,
    ["--conditions=react-server", "--import", "tsx", path.join(ROOT, "scripts/db-migrate.ts")],
    {
      cwd: ROOT,
      env: { ...process.env, ...env },
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
  return new Promise<{ code: number | null; output: string }>((resolve) =>
    child.once("exit", (code) => resolve({ code, output })),
  );
}

/** Where `prepareDatabaseTemplate` leaves its PGlite folder for the test processes of this run. */
const PGLITE_TEMPLATE_ENV = "BRAND_STUDIO_TEST_PGLITE_TEMPLATE";

/**
 * The run's database template, made once the way a first start makes it, so that each test server after it
 * starts on a copy instead of preparing its own (some forty starts a run):
 * - PGlite: a server started on an empty folder (initdb, the migrations, pg-boss's schema, the demo seed),
 *   then stopped cleanly; a start on a copy of its folder takes about 2.6 s instead of 6.3 s;
 * - PostgreSQL: an empty database migrated by `npm run db:migrate`; each server's database is created from
 *   it (`create database … template`), which saves the migrate process (about 1 s) a start.
 *
 * Vitest's global setup calls it; the name reaches the test processes through the environment. Empty
 * starts are still tested where they are the subject: test/database.test.ts, test/production-start.test.ts
 * (`fresh`, `migrate: false`, their own DATA_DIR or SEED_DEMO), and this template's own start.
 */
export async function prepareDatabaseTemplate(): Promise<() => Promise<void>> {
  const baseUrl = process.env.DATABASE_URL;
  if (baseUrl) {
    const database = await createTestDatabase(baseUrl, { fresh: true });
    const migrated = await runDbMigrate({
      DATABASE_URL: database.url,
      NODE_ENV: "production",
      // Required by the configuration check; an empty database holds nothing it would encrypt.
      AUTH_SECRET: `test-secret-${randomBytes(16).toString("hex")}`,
    });
    if (migrated.code !== 0) {
      await database.drop();
      throw new Error(`npm run db:migrate failed on the template database:\n${migrated.output}`);
    }
    process.env[PG_TEMPLATE_ENV] = database.name;
    return async () => {
      delete process.env[PG_TEMPLATE_ENV];
      await database.drop();
    };
  }
  const template = await startTestServer({ fresh: true });
  await template.stop({ keepDataDir: true });
  if (fs.existsSync(path.join(template.dataDir, "pglite.lock"))) {
    throw new Error("The PGlite template's server did not release its folder.");
  }
  process.env[PGLITE_TEMPLATE_ENV] = template.dataDir;
  return async () => {
    delete process.env[PGLITE_TEMPLATE_ENV];
    fs.rmSync(template.dataDir, { recursive: true, force: true });
  };
}

/**
 * Starts the production build (`next build` into .next-test) on a free port with its own data folder and,
 * when DATABASE_URL is set, its own PostgreSQL database. Both start as copies of the run's template when
 * there is one (see prepareDatabaseTemplate), unless the start must make its own: `fresh`, `migrate: false`,
 * or an env that sets SEED_DEMO (the seed depends on it) or DATA_DIR (the caller's own folder).
 */
export async function startTestServer(
  options: {
    env?: Record<string, string | undefined>;
    /** false: start on a PostgreSQL database that `npm run db:migrate` has not prepared. */
    migrate?: boolean;
    /** false: return once the process runs, without waiting for a healthy answer. */
    waitHealthy?: boolean;
    /** Share a database (left in place on stop) and a secret with another server, as a second host would. */
    shared?: { databaseUrl: string; authSecret: string };
    /** Start on an empty PGlite folder or PostgreSQL database even when the run has a template. */
    fresh?: boolean;
    /** A port chosen beforehand (freePort()), for a URL the env must name before the server runs. */
    port?: number;
  } = {},
): Promise<TestServer> {
  const port = options.port ?? (await freePort());
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bs-test-"));
  const fresh =
    options.fresh ||
    options.migrate === false ||
    Boolean(options.env && ("SEED_DEMO" in options.env || "DATA_DIR" in options.env));
  // A caller may share a database with another server (a second host), or bring its own (DATABASE_URL in
  // env; "" forces PGlite).
  const ownUrl = options.env && "DATABASE_URL" in options.env ? options.env.DATABASE_URL : undefined;
  const database = options.shared
    ? { url: options.shared.databaseUrl, migrated: false, drop: async () => {} }
    : ownUrl !== undefined
      ? ownUrl
        ? { url: ownUrl, migrated: false, drop: async () => {} }
        : undefined
      : process.env.DATABASE_URL
        ? await createTestDatabase(process.env.DATABASE_URL, { fresh })
        : undefined;
  const authSecret = options.shared?.authSecret ?? `test-secret-${randomBytes(16).toString("hex")}`;
  const pgliteTemplate = process.env[PGLITE_TEMPLATE_ENV];
  if (!database && !fresh && pgliteTemplate) fs.cpSync(pgliteTemplate, dataDir, { recursive: true });
  // PostgreSQL is migrated the way a deploy does it, before the server starts (a production server migrates
  // only PGlite by itself).
  if (database && options.migrate !== false && !database.migrated) {
    const migrated = await runDbMigrate({
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      NODE_ENV: "production",
      AUTH_SECRET: authSecret,
    });
    if (migrated.code !== 0) {
      await database.drop();
      throw new Error(`npm run db:migrate failed:\n${migrated.output}`);
    }
  }
  const child = spawnNext(port, {
    PORT: String(port),
    DATA_DIR: dataDir,
    DATABASE_URL: database?.url,
    AUTH_SECRET: authSecret,
    NEXTAUTH_URL: `http://127.0.0.1:${port}`,
    // `next start` runs as production, which seeds nothing by default; the tests sign in as the demo user.
    SEED_DEMO: "true",
    WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
    // Tests send many requests a minute from one user; the limit tests set their own low limits.
    RATE_LIMIT_GENERATE_PER_MINUTE: "100000",
    RATE_LIMIT_VIDEO_PER_MINUTE: "100000",
    RATE_LIMIT_IMAGE_PER_MINUTE: "100000",
    RATE_LIMIT_SIGNUP_PER_MINUTE: "100000",
    RATE_LIMIT_INVITE_PER_HOUR: "100000",
    RATE_LIMIT_INVITE_PER_BRAND_PER_HOUR: "100000",
    AUTH_IP_LOCKOUT_THRESHOLD: "100000",
    // Tests try wrong passwords on the shared demo account; the throttling test sets low thresholds itself.
    AUTH_LOCKOUT_THRESHOLD: "1000",
    ...options.env,
  });
  let output = "";
  child.stdout?.on("data", (chunk) => {
    output += chunk;
  });
  child.stderr?.on("data", (chunk) => {
    output += chunk;
  });
  const url = `http://127.0.0.1:${port}`;
  const stop = async ({ keepDataDir = false } = {}) => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
      await exited;
      clearTimeout(timer);
    }
    await database?.drop();
    if (!keepDataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    if (options.waitHealthy === false) await waitForListening(url, child);
    else await waitForHealth(url, child);
  } catch (error) {
    await stop();
    throw new Error(`${(error as Error).message}\n--- server output ---\n${output}`);
  }
  return {
    url,
    child,
    authSecret,
    dataDir,
    databaseUrl: options.env?.DATABASE_URL ?? database?.url,
    pid: child.pid ?? 0,
    logs: () => output,
    stop,
  };
}
