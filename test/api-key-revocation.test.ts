import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newUser } from "./support/auth";
import { api, baseUrl } from "./support/http";
import { startTestServer, type TestServer } from "./support/test-server";
import { SCRIPT, videoClient } from "./support/video-api";

// API keys are cached per process (lib/auth/api-key-cache.ts). A revoke must still be refused at once by
// the process that revoked it, and by every other process as soon as the revocation is heard.

async function newApiKey(server: string, token: string) {
  const created = await api("/api/keys", { server, token, method: "POST", json: { name: "cache test" } });
  expect(created.status).toBe(201);
  return { key: created.body.key as string, keyId: created.body.keyId as string };
}

const brands = (server: string, key: string) => api("/api/brands", { server, token: key });

describe("API key cache: revocation in the same process", () => {
  it("refuses a revoked key on the very next request, after it was used (and cached)", async () => {
    const { token } = await newUser(baseUrl());
    const { key, keyId } = await newApiKey(baseUrl(), token);
    for (let i = 0; i < 3; i++) expect((await brands(baseUrl(), key)).status).toBe(200);

    const revoked = await api(`/api/keys/${keyId}`, { token, method: "DELETE" });
    expect(revoked.status).toBeLessThan(300);
    const after = await brands(baseUrl(), key);
    expect(after.status).toBe(401);
    expect(after.body.error.code).toBe("unauthorized");
    // Another key of the same user still works.
    const other = await newApiKey(baseUrl(), token);
    expect((await brands(baseUrl(), other.key)).status).toBe(200);
  });
});

// Two web processes need PostgreSQL (PGlite is one process); this runs in the PostgreSQL pass.
describe.skipIf(!process.env.DATABASE_URL)("API key cache: revocation across processes (PostgreSQL)", () => {
  let first: TestServer;
  let second: TestServer;

  beforeAll(async () => {
    first = await startTestServer();
    // The second web process shares the first one's database.
    second = await startTestServer({ env: { DATABASE_URL: first.databaseUrl, WORKER: "off" } });
  });
  afterAll(async () => {
    await second?.stop();
    await first?.stop();
  });

  it("a key revoked through one server is refused by the other, well before the cache entry would expire", async () => {
    const { token } = await newUser(first.url);
    const { key, keyId } = await newApiKey(first.url, token);
    // Used on both servers, so both hold it in their cache.
    for (let i = 0; i < 3; i++) {
      expect((await brands(first.url, key)).status).toBe(200);
      expect((await brands(second.url, key)).status).toBe(200);
    }

    const revoked = await api(`/api/keys/${keyId}`, { server: first.url, token, method: "DELETE" });
    expect(revoked.status).toBeLessThan(300);
    expect((await brands(first.url, key)).status).toBe(401);

    // The notification reaches the other process within moments; the cache would keep a key 30 s.
    const deadline = Date.now() + 10_000;
    let status = 200;
    while (Date.now() < deadline) {
      status = (await brands(second.url, key)).status;
      if (status === 401) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(status).toBe(401);
  });
});

describe("GET /api/video/jobs/{id}: ETag from the job's row", () => {
  let client: ReturnType<typeof videoClient>;
  let brandId: string;

  beforeAll(async () => {
    const { token } = await newUser(baseUrl());
    client = videoClient(baseUrl(), token);
    brandId = await client.newBrand();
  });

  it("changes the ETag when the job changes, answers 304 only to the current one, and 404 to anyone else", async () => {
    const created = await client.createJob({ brandId, mode: "regular", script: SCRIPT });
    expect(created.status).toBe(202);
    const { jobId } = created.body;
    const before = await client.call(`/api/video/jobs/${jobId}`);
    const oldTag = before.headers.get("etag") as string;
    expect(oldTag).toMatch(/^"[\w-]+"$/);

    const canceled = await client.call(`/api/video/jobs/${jobId}`, { method: "DELETE" });
    expect(canceled.status).toBe(200);
    const changed = await client.call(`/api/video/jobs/${jobId}`, { headers: { "If-None-Match": oldTag } });
    expect(changed.status).toBe(200);
    expect(changed.body.status).toBe("canceled");
    const newTag = changed.headers.get("etag") as string;
    expect(newTag).not.toBe(oldTag);
    expect(changed.headers.get("retry-after")).toBeNull();

    const same = await client.call(`/api/video/jobs/${jobId}`, {
      headers: { "If-None-Match": `"other", W/${newTag}` },
    });
    expect(same.status).toBe(304);
    expect(same.text).toBe("");
    expect(same.headers.get("etag")).toBe(newTag);

    // Someone else's job is a 404 even with the right ETag: a 304 would tell them it exists.
    const stranger = videoClient(baseUrl(), (await newUser(baseUrl())).token);
    const foreign = await stranger.call(`/api/video/jobs/${jobId}`, { headers: { "If-None-Match": newTag } });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe("not_found");
  });
});
