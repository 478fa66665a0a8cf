import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDatabase } from "@/db/client";
import { withIdempotency } from "@/lib/api/idempotency";
import { enforceRateLimit } from "@/lib/api/rate-limit";
import { ApiError } from "@/lib/errors/api-error";
import { migrateInProcess } from "./support/database";

// These run in this process against the configured database (PGlite in a temporary folder, or PostgreSQL).
beforeAll(async () => {
  process.env.DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "bs-limits-"));
  process.env.RATE_LIMIT_GENERATE_PER_MINUTE = "3";
  await migrateInProcess();
});
afterAll(() => closeDatabase());

const unique = () => `subject-${Math.random().toString(36).slice(2)}`;

describe("enforceRateLimit", () => {
  it("allows the limit, then answers rate_limited with Retry-After and the X-RateLimit headers", async () => {
    const subject = unique();
    const remaining: string[] = [];
    for (let i = 0; i < 3; i++)
      remaining.push((await enforceRateLimit({ bucket: "generate", subject }))["X-RateLimit-Remaining"]);
    expect(remaining).toEqual(["2", "1", "0"]);
    const error = await enforceRateLimit({ bucket: "generate", subject }).catch((caught) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: "rate_limited", status: 429, retryable: true });
    expect(Number(error.headers["Retry-After"])).toBeGreaterThan(0);
    expect(error.headers["X-RateLimit-Limit"]).toBe("3");
    // Another subject has its own window.
    await expect(enforceRateLimit({ bucket: "generate", subject: unique() })).resolves.toBeDefined();
  });

  it("counts concurrent requests exactly", async () => {
    const subject = unique();
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, () => enforceRateLimit({ bucket: "generate", subject })),
    );
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(3);
  });
});

describe("withIdempotency", () => {
  const request = (key?: string) =>
    new Request("http://localhost/api/x", { method: "POST", headers: key ? { "idempotency-key": key } : {} });

  it("runs once per key and replays the first answer for the same body in any key order", async () => {
    let runs = 0;
    const execute = async () => {
      runs++;
      return Response.json({ id: `result-${runs}` }, { status: 201, headers: { Location: `/x/${runs}` } });
    };
    const subject = unique();
    const first = await withIdempotency({
      req: request("k-1"),
      subject,
      operation: "op",
      body: { a: 1, b: 2 },
      execute,
    });
    const again = await withIdempotency({
      req: request("k-1"),
      subject,
      operation: "op",
      body: { b: 2, a: 1 },
      execute,
    });
    expect(runs).toBe(1);
    expect(again.status).toBe(201);
    expect(await again.json()).toEqual(await first.json());
    expect(again.headers.get("location")).toBe("/x/1");
    expect(again.headers.get("idempotent-replayed")).toBe("true");
  });

  it("answers idempotency_conflict for another body or while the first is still running", async () => {
    const subject = unique();
    const ok = async () => Response.json({ ok: true }, { status: 201 });
    await withIdempotency({ req: request("k-2"), subject, operation: "op", body: { a: 1 }, execute: ok });
    await expect(
      withIdempotency({ req: request("k-2"), subject, operation: "op", body: { a: 2 }, execute: ok }),
    ).rejects.toMatchObject({ code: "idempotency_conflict" });

    let release: () => void = () => {};
    const slow = withIdempotency({
      req: request("k-3"),
      subject,
      operation: "op",
      body: {},
      execute: () =>
        new Promise<Response>((resolve) => {
          release = () => resolve(Response.json({}, { status: 201 }));
        }),
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    await expect(
      withIdempotency({ req: request("k-3"), subject, operation: "op", body: {}, execute: ok }),
    ).rejects.toMatchObject({ code: "idempotency_conflict" });
    release();
    await slow;
  });

  it("forgets failures, so the same key can be retried", async () => {
    const subject = unique();
    let runs = 0;
    const failing = async () => {
      runs++;
      throw new ApiError("generation_failed", "model down");
    };
    await expect(
      withIdempotency({ req: request("k-4"), subject, operation: "op", body: {}, execute: failing }),
    ).rejects.toThrow();
    const retried = await withIdempotency({
      req: request("k-4"),
      subject,
      operation: "op",
      body: {},
      execute: async () => Response.json({ ok: true }, { status: 201 }),
    });
    expect(runs).toBe(1);
    expect(retried.status).toBe(201);
  });

  it("runs straight through without a key and rejects a malformed key", async () => {
    let runs = 0;
    const execute = async () => {
      runs++;
      return Response.json({}, { status: 201 });
    };
    await withIdempotency({ req: request(), subject: unique(), operation: "op", body: {}, execute });
    await withIdempotency({ req: request(), subject: unique(), operation: "op", body: {}, execute });
    expect(runs).toBe(2);
    await expect(
      withIdempotency({
        req: request("bad key with spaces"),
        subject: unique(),
        operation: "op",
        body: {},
        execute,
      }),
    ).rejects.toMatchObject({ code: "invalid_request" });
  });
});
