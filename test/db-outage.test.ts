import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { classifyError } from "@/lib/api/classify-error";
import { errorEnvelope } from "@/lib/contracts/common";
import { signInAsDemo } from "./support/auth";
import { api } from "./support/http";
import { freePort, startTestServer, type TestServer } from "./support/test-server";

const PG_BIN = "/usr/lib/postgresql/15/bin";
const OUTAGE_MS = 10_000;
const RECOVERY_LIMIT_MS = 5_000;
const onPostgres = Boolean(process.env.DATABASE_URL);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("the PGlite path maps its errors too", () => {
  it("a closed embedded database is service_unavailable, a NUL it refuses is invalid_request", async () => {
    const db = await PGlite.create();
    const nul = await db.query("select $1::text", ["a\u0000b"]).catch((error) => error);
    // PGlite may accept or refuse a NUL parameter; when it refuses, it is bad input, never an outage.
    if (nul instanceof Error) expect(classifyError(nul)?.code).toBe("invalid_request");
    const range = await db.query("select '294277-01-01'::timestamptz").catch((error) => error);
    expect(classifyError(range)?.code).toBe("invalid_request");
    await db.close();
    const closed = await db.query("select 1").catch((error) => error);
    expect(closed).toBeInstanceOf(Error);
    const mapped = classifyError(closed);
    expect(mapped?.code).toBe("service_unavailable");
    expect(mapped?.status).toBe(503);
    expect(mapped?.headers["Retry-After"]).toMatch(/^\d+$/);
  });

  it("postgres.js connection errors are service_unavailable", async () => {
    const port = await freePort();
    const sql = postgres(`postgres://postgres@127.0.0.1:${port}/none`, {
      max: 1,
      connect_timeout: 2,
      onnotice: () => {},
    });
    const refused = await sql`select 1`.catch((error) => error);
    await sql.end({ timeout: 1 });
    expect(classifyError(refused)?.code).toBe("service_unavailable");
  });
});

// The outage itself needs a PostgreSQL cluster this test may stop: it starts its own with initdb + pg_ctl.
describe.skipIf(!onPostgres)("a PostgreSQL outage (own cluster, stopped for 10 s)", () => {
  let server: TestServer;
  let dataDir: string;
  let port: number;
  // initdb and pg_ctl refuse to run as root: as root, they run as the postgres system user.
  const asOwner = (binary: string, args: string[]) =>
    process.getuid?.() === 0
      ? execFileSync("runuser", ["-u", "postgres", "--", `${PG_BIN}/${binary}`, ...args], {
          stdio: "pipe",
          timeout: 60_000,
        })
      : execFileSync(`${PG_BIN}/${binary}`, args, { stdio: "pipe", timeout: 60_000 });
  const pgCtl = (...args: string[]) => asOwner("pg_ctl", ["-D", dataDir, ...args]);
  const startCluster = () =>
    pgCtl(
      "-o",
      `-p ${port} -k ${dataDir} -c listen_addresses=127.0.0.1`,
      "-l",
      path.join(dataDir, "log"),
      "-w",
      "start",
    );

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bs-outage-pg-"));
    if (process.getuid?.() === 0) {
      const [uid, gid] = ["-u", "-g"].map((flag) =>
        Number(execFileSync("id", [flag, "postgres"]).toString()),
      );
      fs.chownSync(dataDir, uid, gid);
    }
    port = await freePort();
    asOwner("initdb", ["-D", dataDir, "-U", "postgres", "--auth=trust", "-E", "UTF8"]);
    startCluster();
    server = await startTestServer({
      env: { DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/postgres` },
    });
  }, 180_000);

  afterAll(async () => {
    await server?.stop();
    try {
      pgCtl("-m", "immediate", "stop");
    } catch {}
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("answers 503 service_unavailable during the outage, 200 within 5 s after, and loses no job", async () => {
    const { accessToken: token } = await signInAsDemo(server.url);
    const call = (url: string, init: Parameters<typeof api>[1] = {}) =>
      api(url, { server: server.url, token, ...init });
    const brands = await call("/api/brands");
    expect(brands.status).toBe(200);
    const brandId = brands.body.items[0].brandId as string;
    const job = await call("/api/video/jobs", {
      method: "POST",
      json: {
        brandId,
        mode: "regular",
        script: "Fresh beans, roasted every morning. Come in and taste the difference.",
      },
    });
    expect(job.status).toBe(202);

    pgCtl("-m", "fast", "-w", "stop");
    const outageEnds = Date.now() + OUTAGE_MS;
    const during: number[] = [];
    while (Date.now() < outageEnds) {
      const answer = await call("/api/brands");
      during.push(answer.status);
      if (answer.status !== 503) throw new Error(`During the outage: ${answer.status} ${answer.text}`);
      const envelope = errorEnvelope.parse(answer.body);
      expect(envelope.error).toMatchObject({ code: "service_unavailable", retryable: true });
      expect(Number(answer.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(answer.headers.get("x-request-id")).toBe(envelope.error.requestId);
      const health = await api("/api/health", { server: server.url });
      expect(health.status).toBe(503);
      await sleep(500);
    }
    // Every answer above was the envelope; a few samples across the outage are enough to show it (how many
    // fit in 10 s depends on how long each refused connection takes on this machine).
    expect(during.length).toBeGreaterThanOrEqual(3);

    startCluster();
    const restarted = Date.now();
    let recoveredAfter = Number.POSITIVE_INFINITY;
    while (Date.now() - restarted < 30_000) {
      if ((await call("/api/brands")).status === 200) {
        recoveredAfter = Date.now() - restarted;
        break;
      }
      await sleep(200);
    }
    console.log(
      `outage: ${during.length} requests answered 503; first 200 ${recoveredAfter} ms after restart`,
    );
    expect(recoveredAfter).toBeLessThanOrEqual(RECOVERY_LIMIT_MS);

    // Nothing lost: the job made before the outage still finishes.
    const deadline = Date.now() + 180_000;
    let status = "";
    while (Date.now() < deadline) {
      const current = await call(`/api/video/jobs/${job.body.jobId}`);
      status = current.body?.status;
      if (status === "succeeded" || status === "failed" || status === "canceled") break;
      await sleep(1000);
    }
    expect(status).toBe("succeeded");
  }, 300_000);
});
