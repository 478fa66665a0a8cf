import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { closeDatabase, DatabaseNotMigratedError, getDatabase, getDb } from "@/db/client";
import { acquireDataDirLock, DataDirLockedError } from "@/db/pglite-lock";
import { brands, users } from "@/db/schema";
import { DEMO_LOGIN, findDemoUser } from "@/db/seed";
import { prepareDatabase } from "@/lib/server/prepare-database";
import { migrateInProcess } from "./support/database";
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
});

/** Runs `body` against a fresh PGlite folder in this process (on either test pass), then restores the env. */
async function withFreshPglite(env: Record<string, string>, body: () => Promise<void>) {
  const saved = {
    DATA_DIR: process.env.DATA_DIR,
    DATABASE_URL: process.env.DATABASE_URL,
    SEED_DEMO: process.env.SEED_DEMO,
  };
  Object.assign(process.env, { DATA_DIR: tempDir(), DATABASE_URL: "", ...env });
  try {
    await body();
  } finally {
    await closeDatabase();
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  }
}

describe("start-up duties", () => {
  it("getDb() only connects: on an unmigrated database it fails naming npm run db:migrate, and creates nothing", async () => {
    await withFreshPglite({}, async () => {
      const error = await getDb().catch((caught) => caught);
      expect(error).toBeInstanceOf(DatabaseNotMigratedError);
      expect(error.message).toMatch(/run npm run db:migrate/);
      expect(error.message).toContain("0000_init");
      const database = await getDatabase();
      const tables = await database.db.execute(
        sql`select count(*)::int as n from information_schema.tables where table_name = 'users'`,
      );
      expect(JSON.stringify(tables)).toContain('"n":0');

      await migrateInProcess();
      const db = await getDb();
      expect(await db.select().from(users)).toEqual([]);
    });
  });

  it("migrates PGlite on start and seeds the demo user and a brand with a complete voice when SEED_DEMO is on", async () => {
    await withFreshPglite({ SEED_DEMO: "true" }, async () => {
      await prepareDatabase({ seed: true });
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
    });
  });

  it("creates no demo account with SEED_DEMO=false, and the worker's start never seeds", async () => {
    await withFreshPglite({ SEED_DEMO: "false" }, async () => {
      await prepareDatabase({ seed: true });
      expect(await (await getDb()).select().from(users)).toEqual([]);
    });
    await withFreshPglite({ SEED_DEMO: "true" }, async () => {
      await prepareDatabase({ seed: false });
      expect(await (await getDb()).select().from(users)).toEqual([]);
    });
  });
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
      const second = spawnNext(await freePort(), {
        DATA_DIR: first.dataDir,
        DATABASE_URL: "",
        AUTH_SECRET: first.authSecret,
      });
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
