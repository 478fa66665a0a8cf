import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { closeDatabase, getDatabase, getDb } from "@/db/client";
import { acquireDataDirLock, DataDirLockedError } from "@/db/pglite-lock";
import { brands } from "@/db/schema";
import { DEMO_LOGIN, findDemoUser } from "@/db/seed";
import { freePort, spawnNext, startTestServer } from "./support/test-server";

const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), "bs-db-"));

afterAll(() => closeDatabase());

describe("the database switch", () => {
  it("uses PostgreSQL when DATABASE_URL is set and PGlite in DATA_DIR otherwise", async () => {
    const dataDir = tempDir();
    process.env.DATA_DIR = dataDir;
    const database = await getDatabase();
    if (process.env.DATABASE_URL) {
      expect(database.kind).toBe("postgres");
      expect(fs.existsSync(path.join(dataDir, "pglite"))).toBe(false);
    } else {
      expect(database.kind).toBe("pglite");
      expect(fs.existsSync(path.join(dataDir, "pglite"))).toBe(true);
    }
    await closeDatabase();
  });

  // On PostgreSQL the servers' own fresh databases show the seed (the auth tests sign in as the demo user).
  it.skipIf(Boolean(process.env.DATABASE_URL))(
    "migrates and seeds the demo user and a brand with a complete voice",
    async () => {
      process.env.DATA_DIR = tempDir();
      const db = await getDb();
      const demo = await findDemoUser(db);
      expect(demo?.email).toBe(DEMO_LOGIN.email);
      const [brand] = await db.select().from(brands);
      expect(brand.tone.length).toBeGreaterThan(0);
      expect(brand.voice.length).toBeGreaterThan(0);
      const tables = await db.execute(
        sql`select count(*)::int as n from information_schema.tables where table_name = 'video_jobs'`,
      );
      expect(JSON.stringify(tables)).toContain('"n":1');
      await closeDatabase();
    },
  );
});

describe("the PGlite folder lock", () => {
  it("refuses a second holder in another live process and names the way out", () => {
    const dir = tempDir();
    const child = spawn(process.execPath, ["-e", "setTimeout(() => {}, 30000)"]);
    try {
      fs.writeFileSync(
        path.join(dir, "pglite.lock"),
        JSON.stringify({ pid: child.pid, host: os.hostname() }),
      );
      expect(() => acquireDataDirLock(dir)).toThrow(DataDirLockedError);
      expect(() => acquireDataDirLock(dir)).toThrow(/DATABASE_URL/);
    } finally {
      child.kill();
    }
  });

  it("recovers a lock left by a dead process", async () => {
    const dir = tempDir();
    const child = spawn(process.execPath, ["-e", ""]);
    await new Promise((resolve) => child.once("exit", resolve));
    fs.writeFileSync(path.join(dir, "pglite.lock"), JSON.stringify({ pid: child.pid, host: os.hostname() }));
    const release = acquireDataDirLock(dir);
    expect(JSON.parse(fs.readFileSync(path.join(dir, "pglite.lock"), "utf8")).pid).toBe(process.pid);
    release();
    expect(fs.existsSync(path.join(dir, "pglite.lock"))).toBe(false);
  });

  it("makes a second server on the same folder exit with a clear message while the first keeps serving", async () => {
    const first = await startTestServer({ env: { DATABASE_URL: "" } });
    try {
      const second = spawnNext(await freePort(), { DATA_DIR: first.dataDir, DATABASE_URL: "" });
      let output = "";
      second.stdout?.on("data", (chunk) => {
        output += chunk;
      });
      second.stderr?.on("data", (chunk) => {
        output += chunk;
      });
      const exitCode = await new Promise<number | null>((resolve) => second.once("exit", resolve));
      expect(exitCode).toBe(1);
      expect(output).toMatch(/already open in process \d+/);
      const health = await fetch(`${first.url}/api/health`);
      expect(health.status).toBe(200);
    } finally {
      await first.stop();
    }
  });
});
