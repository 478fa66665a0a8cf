import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { afterAll, describe, expect, it } from "vitest";
import { closeDatabase, getDb } from "@/db/client";
import { users } from "@/db/schema";
import { newUser, signInAsDemo } from "./support/auth";
import { freePort, runDbMigrate, startTestServer, TEST_DIST_DIR } from "./support/test-server";

const ROOT = path.resolve(__dirname, "..");
const RECORDER = path.join(__dirname, "fixtures", "record-listen.cjs");
const onPostgres = Boolean(process.env.DATABASE_URL);

// Secret values that must never be printed.
const SHORT_SECRET = "short-auth-secret-Xq7";
const S3_SECRET = "s3-secret-value-Zk9";
const BAD_CONFIG = {
  NODE_ENV: "production",
  VIDEO_MONTHLY_QUOTA: "abc",
  AUTH_SECRET: SHORT_SECRET,
  MEDIA_STORE: "s3",
  S3_ACCESS_KEY_ID: "minio-user",
  S3_SECRET_ACCESS_KEY: S3_SECRET,
  S3_BUCKET: "",
};

/**
 * Runs a command as plain node with the listen recorder preloaded, while trying to connect to its port
 * every 20 ms. Resolves when it exits, with its code, its output, the listen calls it made and how many
 * connections the port accepted.
 */
async function runAndProbe(args: string[], env: Record<string, string>) {
  const port = await freePort();
  const record = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "bs-listen-")), "listens");
  const child = spawn(process.execPath, ["--require", RECORDER, ...args, "-p", String(port)], {
    cwd: ROOT,
    env: {
      ...process.env,
      NEXT_DIST_DIR: TEST_DIST_DIR,
      NEXT_TELEMETRY_DISABLED: "1",
      DATA_DIR: path.dirname(record),
      LISTEN_RECORD_FILE: record,
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk) => {
    output += chunk;
  });
  child.stderr?.on("data", (chunk) => {
    output += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  let accepted = 0;
  let done = false;
  void exited.then(() => {
    done = true;
  });
  while (!done) {
    accepted += await new Promise<number>((resolve) => {
      const socket = net.connect(port, "127.0.0.1");
      socket.once("connect", () => {
        socket.destroy();
        resolve(1);
      });
      socket.once("error", () => resolve(0));
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const code = await exited;
  const listens = fs.existsSync(record) ? fs.readFileSync(record, "utf8").trim().split("\n") : [];
  fs.rmSync(path.dirname(record), { recursive: true, force: true });
  return { code, output, listens, accepted };
}

function expectOneMessageNamingEach(output: string) {
  expect(output.match(/Brand Studio cannot start: the configuration is invalid\./g)).toHaveLength(1);
  expect(output).toMatch(/- VIDEO_MONTHLY_QUOTA: expected a whole number from 0 to 100000; got "abc"/);
  expect(output).toMatch(
    /- AUTH_SECRET: expected at least 32 bytes in production; got a hidden value of 21 bytes/,
  );
  expect(output).toMatch(/- S3_BUCKET: required when MEDIA_STORE=s3; got unset/);
  expect(output).not.toContain(SHORT_SECRET);
  expect(output).not.toContain(S3_SECRET);
}

describe("a bad configuration", () => {
  it("stops npm start (scripts/start.mjs) with exit code 1 and one message naming each variable, before the port ever listens", async () => {
    const result = await runAndProbe(["scripts/start.mjs"], BAD_CONFIG);
    expect(result.code).toBe(1);
    expectOneMessageNamingEach(result.output);
    expect(result.listens).toEqual([]);
    expect(result.accepted).toBe(0);
  });

  it("would be found by bare `next start` only after it listens: why npm start checks first (and the probe works)", async () => {
    const result = await runAndProbe(["node_modules/next/dist/bin/next", "start"], BAD_CONFIG);
    // The instrumentation hook still refuses to run with it…
    expect(result.code).toBe(1);
    expectOneMessageNamingEach(result.output);
    // …but only after Next opened its port.
    expect(result.listens.length).toBeGreaterThan(0);
  });

  it("stops npm run worker and npm run db:migrate the same way", async () => {
    for (const script of ["worker/index.ts", "scripts/db-migrate.ts"]) {
      const result = await runAndProbe(["--conditions=react-server", "--import", "tsx", script], BAD_CONFIG);
      expect(result.code, script).toBe(1);
      expectOneMessageNamingEach(result.output);
      expect(result.listens, script).toEqual([]);
    }
  });
});

describe("a production start", () => {
  afterAll(() => closeDatabase());

  // PGlite pass: a production PGlite migrates itself on start. PostgreSQL pass: the test server ran
  // `npm run db:migrate` on an empty database first, as a deploy does.
  it(`creates no demo account on an empty ${onPostgres ? "PostgreSQL (after npm run db:migrate)" : "PGlite"}`, async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bs-prod-"));
    // SEED_DEMO unset: the production default (the test servers otherwise turn it on).
    const server = await startTestServer({ env: { SEED_DEMO: "", DATA_DIR: dataDir } });
    let userCount = -1;
    try {
      await expect(signInAsDemo(server.url)).rejects.toThrow(/Sign-in failed/);
      if (server.databaseUrl) {
        const sql = postgres(server.databaseUrl, { max: 1, onnotice: () => {} });
        [{ userCount }] = await sql<{ userCount: number }[]>`select count(*)::int as "userCount" from users`;
        await sql.end();
      }
    } finally {
      await server.stop();
    }
    if (!server.databaseUrl) {
      // The server is gone, so its PGlite folder can be opened here.
      const saved = { DATA_DIR: process.env.DATA_DIR, DATABASE_URL: process.env.DATABASE_URL };
      Object.assign(process.env, { DATA_DIR: dataDir, DATABASE_URL: "" });
      try {
        userCount = (await (await getDb()).select().from(users)).length;
      } finally {
        await closeDatabase();
        Object.assign(process.env, {
          DATA_DIR: saved.DATA_DIR ?? "",
          DATABASE_URL: saved.DATABASE_URL ?? "",
        });
      }
    }
    expect(userCount).toBe(0);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it.skipIf(!onPostgres)(
    "on a PostgreSQL that npm run db:migrate has not prepared answers health 503 and names the command, then heals once it has run",
    async () => {
      const server = await startTestServer({ migrate: false, waitHealthy: false });
      try {
        const health = await fetch(`${server.url}/api/health`);
        expect(health.status).toBe(503);
        expect(await health.json()).toMatchObject({
          status: "degraded",
          checks: { database: "unavailable" },
        });
        expect(server.logs()).toMatch(/run npm run db:migrate/);
        const signUp = await fetch(`${server.url}/api/users`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ email: "first@example.test", password: "a-long-password" }),
        });
        expect(signUp.status).toBeGreaterThanOrEqual(500);
        expect((await signUp.json()).error.code).toBeDefined();

        const migrated = await runDbMigrate({
          DATABASE_URL: server.databaseUrl,
          NODE_ENV: "production",
          AUTH_SECRET: server.authSecret,
        });
        expect(migrated.code, migrated.output).toBe(0);
        const healed = await fetch(`${server.url}/api/health`);
        expect(healed.status).toBe(200);
        // The first real user signs up as the README says.
        const first = await newUser(server.url);
        expect(first.token.length).toBeGreaterThan(0);
      } finally {
        await server.stop();
      }
    },
  );
});
