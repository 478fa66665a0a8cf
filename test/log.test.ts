import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { closeDatabase, getDb } from "@/db/client";
import { users } from "@/db/schema";
import { newId } from "@/lib/ids";
import { log } from "@/lib/log";
import { createWebhookEndpoint } from "@/lib/webhooks/webhook-endpoints";
import { migrateInProcess } from "./support/database";
import { createTestDatabase } from "./support/test-server";

/**
 * lib/log.ts: info lines are written after the current task, pending ones in one stdout write, and never
 * lost when the process exits first; warnings and errors stay immediate.
 */

afterEach(() => {
  vi.restoreAllMocks();
});

describe("log lines", () => {
  it("write info lines after the current task, together, as JSON with secrets redacted", async () => {
    const writes: string[] = [];
    vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
      writes.push(String(chunk));
      return true;
    });
    log.info("first_event", { postId: "pst_1", authorization: "Bearer secret" });
    log.info("second_event", { n: 2 });
    expect(writes).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toHaveLength(1);
    const lines = writes[0].split("\n");
    expect(lines.at(-1)).toBe("");
    const [first, second] = lines.slice(0, -1).map((line) => JSON.parse(line));
    expect(first).toMatchObject({ level: "info", event: "first_event", postId: "pst_1" });
    expect(first.authorization).toBe("[redacted]");
    expect(second).toMatchObject({ level: "info", event: "second_event", n: 2 });
  });

  it("write warnings at once, through console", () => {
    const warned = vi.spyOn(console, "warn").mockImplementation(() => {});
    log.warn("something_odd", { n: 1 });
    expect(warned).toHaveBeenCalledTimes(1);
    expect(JSON.parse(String(warned.mock.calls[0][0]))).toMatchObject({
      level: "warn",
      event: "something_odd",
    });
  });

  it("still write pending info lines when the process exits before they were due", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bs-log-"));
    const script = path.join(dir, "exit-early.mts");
    fs.writeFileSync(
      script,
      `import { log } from ${JSON.stringify(path.resolve("lib/log.ts"))};
log.info("before_exit", { n: 1 });
log.info("also_before_exit", { n: 2 });
process.exit(3);
`,
    );
    const run = spawnSync(process.execPath, ["--conditions=react-server", "--import", "tsx", script], {
      cwd: path.resolve("."),
      encoding: "utf8",
    });
    fs.rmSync(dir, { recursive: true, force: true });
    expect(run.status, run.stderr).toBe(3);
    const events = run.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line).event);
    expect(events).toEqual(["before_exit", "also_before_exit"]);
  });
});

describe("no secret in any log line (issue 39, item 18)", () => {
  const originalEnv = { DATA_DIR: process.env.DATA_DIR, DATABASE_URL: process.env.DATABASE_URL };
  let dropDatabase: (() => Promise<void>) | undefined;

  afterAll(async () => {
    await closeDatabase();
    await dropDatabase?.();
    if (originalEnv.DATA_DIR !== process.env.DATA_DIR)
      fs.rmSync(process.env.DATA_DIR ?? "", { recursive: true, force: true });
    for (const [name, value] of Object.entries(originalEnv)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  /** What one log.error call printed, as the handler logs an unexpected error. */
  function logged(fields: Record<string, unknown>) {
    const printed = vi.spyOn(console, "error").mockImplementation(() => {});
    log.error("unhandled_error", fields);
    const line = String(printed.mock.calls[0][0]);
    printed.mockRestore();
    return line;
  }

  it("leaves out a failed insert's parameters: the webhook's whsec_ secret never reaches the log", async () => {
    // A database of this test's own, where the insert of an endpoint fails (a constraint nothing meets).
    process.env.DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "bs-log-db-"));
    if (originalEnv.DATABASE_URL) {
      const database = await createTestDatabase(originalEnv.DATABASE_URL);
      process.env.DATABASE_URL = database.url;
      dropDatabase = database.drop;
    }
    await migrateInProcess();
    const db = await getDb();
    const userId = newId("usr");
    await db.insert(users).values({ id: userId, email: `${userId}@example.test` });
    await db.execute(sql`alter table webhook_endpoints add constraint refuse_all check (false)`);
    const failure = await createWebhookEndpoint({
      userId,
      url: "http://127.0.0.1:9/hook",
      events: ["post.published"],
    }).catch((error: Error) => error);
    expect(failure).toBeInstanceOf(Error);
    // The error itself carries the secret (drizzle puts the query's parameters in its message)…
    expect(JSON.stringify({ message: (failure as Error).message, stack: (failure as Error).stack })).toMatch(
      /whsec_/,
    );
    // … the line the log writes does not, nor anything else that was sent.
    const line = logged({ error: failure });
    expect(line).not.toMatch(/whsec_/);
    expect(line).not.toContain("127.0.0.1:9");
    expect(JSON.parse(line).error.message).toMatch(/Failed query: insert into "webhook_endpoints"/);
  });

  it("redacts secrets by their shape in any text: API keys, bot tokens, bearer credentials", () => {
    const apiKey = "bsk_Q2hhbmdlTWVQbGVhc2VJdHNBU2VjcmV0S2V5";
    const botToken = "123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw";
    const line = logged({
      note: `tried ${apiKey} and bot${botToken}`,
      error: new Error(`request failed: Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.e30.sig and whsec_abc+/=`),
      nested: { list: [`sent ${botToken}`] },
    });
    for (const secret of [apiKey, botToken, "eyJhbGciOiJIUzI1NiJ9", "whsec_abc"]) {
      expect(line).not.toContain(secret);
    }
    expect(line).toContain("[redacted]");
  });
});
