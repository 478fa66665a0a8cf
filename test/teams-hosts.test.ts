import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newUser } from "./support/auth";
import { api } from "./support/http";
import { createTestDatabase, startTestServer, type TestServer } from "./support/test-server";
import { SCRIPT } from "./support/video-api";

const onPostgres = Boolean(process.env.DATABASE_URL);

/**
 * Two web processes on one PostgreSQL database: each keeps per-process caches (finished video jobs, API
 * keys), and a change made on A, or by an operator in SQL, must reach B at once (NOTIFY from triggers).
 */
describe.skipIf(!onPostgres)("removal takes effect at once on every process (PostgreSQL)", () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let webA: TestServer;
  let webB: TestServer;

  beforeAll(async () => {
    database = await createTestDatabase(process.env.DATABASE_URL as string);
    const shared = {
      databaseUrl: database.url,
      authSecret: `test-secret-${randomBytes(16).toString("hex")}`,
    };
    webA = await startTestServer({ env: { WORKER: "off" }, shared });
    webB = await startTestServer({ env: { WORKER: "off" }, shared });
  });

  afterAll(async () => {
    await webA?.stop();
    await webB?.stop();
    await database?.drop();
  });

  it("a member removed on A gets 404 on B at once, for the brand and for a finished job B had cached", async () => {
    const owner = await newUser(webA.url);
    const member = await newUser(webA.url);
    const brand = await api("/api/brands", {
      server: webA.url,
      method: "POST",
      token: owner.token,
      json: { name: "Shared", tone: "calm", voice: "plain" },
    });
    const brandId = brand.body.brandId as string;
    const invitation = await api(`/api/brands/${brandId}/invitations`, {
      server: webA.url,
      method: "POST",
      token: owner.token,
      json: { email: member.email, role: "editor" },
    });
    const token = (invitation.body.link as string).split("/invite/")[1];
    const accepted = await api(`/api/invitations/${token}/accept`, {
      server: webA.url,
      method: "POST",
      token: member.token,
      json: {},
    });
    expect(accepted.status, accepted.text).toBe(200);

    // A job that is finished (canceled), polled on B by the member until B caches it.
    const job = await api("/api/video/jobs", {
      server: webA.url,
      method: "POST",
      token: owner.token,
      json: { brandId, mode: "regular", script: SCRIPT },
    });
    const jobId = job.body.jobId as string;
    const canceled = await api(`/api/video/jobs/${jobId}`, {
      server: webA.url,
      method: "DELETE",
      token: owner.token,
    });
    expect(canceled.body.status).toBe("canceled");
    for (let i = 0; i < 5; i++) {
      const poll = await api(`/api/video/jobs/${jobId}`, { server: webB.url, token: member.token });
      expect(poll.status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }

    const removed = await api(`/api/brands/${brandId}/members/${member.userId}`, {
      server: webA.url,
      method: "DELETE",
      token: owner.token,
    });
    expect(removed.status).toBe(204);
    // NOTIFY reaches B within milliseconds of the commit (no TTL to wait out).
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await api(`/api/video/jobs/${jobId}`, { server: webB.url, token: member.token })).status).toBe(
      404,
    );
    expect((await api(`/api/brands/${brandId}`, { server: webB.url, token: member.token })).status).toBe(404);
    // The owner still sees it on B.
    expect((await api(`/api/video/jobs/${jobId}`, { server: webB.url, token: owner.token })).status).toBe(
      200,
    );
  });

  it("an account deleted on A, or by an operator in SQL, stops its API key on B at once", async () => {
    for (const how of ["api", "sql"] as const) {
      const user = await newUser(webA.url);
      const key = await api("/api/keys", {
        server: webA.url,
        method: "POST",
        token: user.token,
        json: { name: how },
      });
      const apiKey = key.body.key as string;
      // B has read (and cached) the key.
      expect((await api("/api/brands", { server: webB.url, token: apiKey })).status).toBe(200);
      expect((await api("/api/brands", { server: webB.url, token: apiKey })).status).toBe(200);
      if (how === "api") {
        const deleted = await api("/api/users/me", {
          server: webA.url,
          method: "DELETE",
          token: user.token,
          json: { password: user.password },
        });
        expect(deleted.status, deleted.text).toBe(204);
      } else {
        const sql = postgres(database.url, { max: 1, onnotice: () => {} });
        await sql`delete from users where id = ${user.userId}`;
        await sql.end();
      }
      // NOTIFY is delivered asynchronously; "at once" is within a few milliseconds of the commit.
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect((await api("/api/brands", { server: webB.url, token: apiKey })).status, how).toBe(401);
      expect((await api("/api/brands", { server: webB.url, token: user.token })).status, how).toBe(401);
    }
  });
});
