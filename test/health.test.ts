import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { healthResponse } from "@/lib/contracts/health";
import packageJson from "@/package.json";
import { api } from "./support/http";
import { type S3Server, startS3Server } from "./support/s3-server";
import { freePort, spawnNext, startTestServer, type TestServer } from "./support/test-server";

describe("GET /api/health", () => {
  it("answers 200 without a token, with the database reachable and the package version", async () => {
    const { status, body, headers } = await api("/api/health");
    expect(status).toBe(200);
    const health = healthResponse.parse(body);
    expect(health).toMatchObject({ status: "ok", version: packageJson.version });
    expect(health.checks.database).toBe("ok");
    expect(health.checks.queue).toBe("ok");
    expect(health.checks.media).toBe("ok");
    expect(headers.get("cache-control")).toBe("no-store");
    expect(headers.get("x-request-id")).toMatch(/^req_/);
  });

  it("answers 503 degraded, in the same shape, when the database cannot be reached", async () => {
    const port = await freePort();
    // Port 9 (discard) on loopback: nothing listens, so every connection is refused.
    const server = spawnNext(port, {
      DATABASE_URL: "postgres://postgres@127.0.0.1:9/none",
      AUTH_SECRET: "a-test-secret-of-at-least-32-bytes-long",
    });
    try {
      let response: Response | undefined;
      for (let i = 0; i < 240 && !response; i++) {
        response = await fetch(`http://127.0.0.1:${port}/api/health`).catch(() => undefined);
        if (!response) await new Promise((resolve) => setTimeout(resolve, 250));
      }
      expect(response?.status).toBe(503);
      const health = healthResponse.parse(await response?.json());
      expect(health).toMatchObject({
        status: "degraded",
        checks: { database: "unavailable", queue: "unavailable" },
      });
    } finally {
      server.kill("SIGKILL");
    }
  });
});

describe("GET /api/health with S3 media storage", () => {
  let s3: S3Server;
  let server: TestServer;
  beforeAll(async () => {
    s3 = await startS3Server();
    server = await startTestServer({ env: s3.env });
  });
  afterAll(async () => {
    await server?.stop();
    await s3?.stop();
  });

  it("reports media ok while the bucket answers, and 503 with media unavailable once it does not", async () => {
    const up = await fetch(`${server.url}/api/health`);
    expect(up.status).toBe(200);
    expect(healthResponse.parse(await up.json()).checks).toMatchObject({ media: "ok", database: "ok" });

    await s3.stop();
    const down = await fetch(`${server.url}/api/health`);
    expect(down.status).toBe(503);
    expect(healthResponse.parse(await down.json())).toMatchObject({
      status: "degraded",
      checks: { database: "ok", queue: "ok", media: "unavailable" },
    });
  });
});

describe("unknown API paths", () => {
  it("answer 404 in the JSON envelope, not an HTML page", async () => {
    const { status, body, headers } = await api("/api/nothing-here", { method: "POST", body: "x" });
    expect(status).toBe(404);
    expect(headers.get("content-type")).toMatch(/application\/json/);
    expect(body.error).toMatchObject({ code: "not_found", retryable: false });
  });
});
