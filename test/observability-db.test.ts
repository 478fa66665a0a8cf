import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { context, SpanStatusCode, trace } from "@opentelemetry/api";
import { node, tracing } from "@opentelemetry/sdk-node";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDatabase, configureDatabase, type DatabaseSettings, getDatabase, getDb } from "@/db/client";
import { runMigrations } from "@/db/migrate";
import { brands, users } from "@/db/schema";
import { maskLiterals, summariseStatement } from "@/db/traced-driver";
import { configureDatabaseFromEnv } from "@/lib/server/prepare-database";
import { createTestDatabase } from "./support/test-server";

/**
 * Database statement spans (db/traced-driver.ts) against the real database of this pass (PGlite, or
 * PostgreSQL when DATABASE_URL is set), exported to an in-memory exporter: one span per statement, a child
 * of the active span, with what ran and never with what values.
 */

const exporter = new tracing.InMemorySpanExporter();
const provider = new node.NodeTracerProvider({ spanProcessors: [new tracing.SimpleSpanProcessor(exporter)] });
let database: { url?: string; drop?: () => Promise<void>; dataDir: string };

async function openWith(settings: Partial<DatabaseSettings>) {
  await closeDatabase();
  configureDatabase(() => ({ url: database.url, dataDir: database.dataDir, ...settings }));
  return getDatabase();
}

beforeAll(async () => {
  provider.register();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bs-dbspans-"));
  database = process.env.DATABASE_URL
    ? { ...(await createTestDatabase(process.env.DATABASE_URL)), dataDir }
    : { dataDir };
  await runMigrations(await openWith({ traceStatements: false }));
});

afterAll(async () => {
  await closeDatabase();
  await database?.drop?.();
  configureDatabaseFromEnv();
  await provider.shutdown();
  trace.disable();
  context.disable();
});

describe("database statement spans", () => {
  it("with tracing off, drizzle gets the driver itself: nothing is wrapped, no span is made", async () => {
    const opened = await openWith({ traceStatements: false });
    const db = (await getDb()) as unknown as { $client: unknown };
    // On PGlite that is its batched-statement client (db/pglite-pipelined.ts), which makes no spans.
    expect(db.$client).toBe(opened.kind === "postgres" ? opened.sql : opened.client);
    exporter.reset();
    await trace.getTracer("test").startActiveSpan("operation", async (span) => {
      await (await getDb()).select().from(users).limit(1);
      span.end();
    });
    expect(exporter.getFinishedSpans().map((s) => s.name)).toEqual(["operation"]);
  });

  it("with it on: one CLIENT span per statement under the operation's span, naming the statement, never its values", async () => {
    await openWith({ traceStatements: true });
    const db = await getDb();
    const email = `secret.person+${randomBytes(4).toString("hex")}@example.com`;
    const passwordHash = `hash-${randomBytes(16).toString("hex")}`;
    const prompt = `A private brief about ${randomBytes(6).toString("hex")}`;
    const userId = `usr_${randomBytes(6).toString("hex")}`;
    exporter.reset();
    const tracer = trace.getTracer("test");
    let parentId = "";
    let failure: unknown;
    await tracer.startActiveSpan("operation", async (span) => {
      parentId = span.spanContext().spanId;
      await db.insert(users).values({ id: userId, email, passwordHash });
      const [found] = await db.select().from(users).where(eq(users.email, email));
      expect(found.id).toBe(userId);
      await db.transaction(async (tx) => {
        await tx
          .insert(brands)
          .values({ id: `brd_${randomBytes(6).toString("hex")}`, name: "Acme", tone: prompt });
        await tx.update(users).set({ name: prompt }).where(eq(users.id, userId));
      });
      // A unique violation: its span is an error with the SQLSTATE, not the message (which quotes the email).
      failure = await db
        .insert(users)
        .values({ id: `usr_${randomBytes(6).toString("hex")}`, email })
        .catch((error) => error);
      span.end();
    });
    expect(failure).toBeInstanceOf(Error);

    const spans = exporter.getFinishedSpans();
    const statements = spans.filter((s) => s.attributes["db.system"] === "postgresql");
    expect(statements.map((s) => s.name)).toEqual([
      "INSERT users",
      "SELECT users",
      "INSERT brands",
      "UPDATE users",
      "INSERT users",
    ]);
    for (const span of statements) {
      expect(span.kind).toBe(2); // CLIENT
      expect(span.parentSpanContext?.spanId, span.name).toBe(parentId);
      expect(span.spanContext().traceId).toBe(
        spans.find((s) => s.name === "operation")?.spanContext().traceId,
      );
      expect(span.attributes).toMatchObject({
        "db.system.name": "postgresql",
        "db.operation.name": span.name.split(" ")[0],
        "db.collection.name": span.name.split(" ")[1],
        "db.query.summary": span.name,
      });
      expect(String(span.attributes["db.query.text"])).toMatch(/\$1/);
      const text = JSON.stringify({ attributes: span.attributes, status: span.status, events: span.events });
      for (const secret of [email, passwordHash, prompt, userId, "secret.person"]) {
        expect(text.includes(secret), `${span.name} holds ${secret}: ${text}`).toBe(false);
      }
    }
    expect(statements[0].attributes["db.response.returned_rows"]).toBe(1);
    const failed = statements[4];
    expect(failed.status).toMatchObject({ code: SpanStatusCode.ERROR, message: "23505" });
    expect(failed.attributes["error.type"]).toBe("23505");
    if (process.env.DATABASE_URL) {
      expect(statements[0].attributes).toMatchObject({ "server.address": "127.0.0.1", "server.port": 5432 });
      expect(JSON.stringify(statements[0].attributes)).not.toMatch(/postgres:\/\//);
    }
  });
});

describe("statement summaries", () => {
  it("mask literals and name the operation and its first table", () => {
    expect(maskLiterals(`select * from "users" where "email" = 'a@b.c' and "n" > 42 and "x" = $1`)).toBe(
      `select * from "users" where "email" = ? and "n" > ? and "x" = $1`,
    );
    expect(maskLiterals("do $body$ secret $body$; select $$ quoted $$")).toBe("do ?; select ?");
    expect(summariseStatement(`select "id" from "video_jobs" where "status" = $1`).name).toBe(
      "SELECT video_jobs",
    );
    expect(summariseStatement(`insert into "posts" ("id") values ($1)`).name).toBe("INSERT posts");
    expect(summariseStatement(`update "pgboss"."job" set "state" = $1`).name).toBe("UPDATE job");
    expect(summariseStatement(`delete from "sessions" where true`).name).toBe("DELETE sessions");
    expect(summariseStatement(`with "x" as (select 1 from "a") update "b" set "c" = 1 from "x"`).name).toBe(
      "UPDATE b",
    );
    expect(summariseStatement("select pg_advisory_xact_lock($1)").name).toBe("SELECT");
    expect(summariseStatement("vacuum").name).toBe("VACUUM");
    expect(summariseStatement("frobnicate 'x'").attributes["db.query.text"]).toBe("frobnicate ?");
  });
});
