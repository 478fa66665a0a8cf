import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInAsDemo } from "./support/auth";
import { api, baseUrl } from "./support/http";
import { demoBrandId } from "./support/post-fixtures";
import { startTestServer, type TestServer } from "./support/test-server";

const brief = (brandId: string, topic = "Our new single-origin Ethiopian roast arrives this week") => ({
  brandId,
  channel: "linkedin",
  topic,
  goal: "traffic",
});

describe("POST /api/content/create with an Idempotency-Key", () => {
  it("saves one draft for a retried request and replays the first answer", async () => {
    const { accessToken: token } = await signInAsDemo(baseUrl());
    const brandId = await demoBrandId(api, token);
    const key = `retry-${Date.now()}`;
    const headers = { "idempotency-key": key };
    const first = await api("/api/content/create", { method: "POST", token, headers, json: brief(brandId) });
    const retry = await api("/api/content/create", { method: "POST", token, headers, json: brief(brandId) });
    expect(first.status).toBe(201);
    expect(retry.status).toBe(201);
    expect(retry.body.postId).toBe(first.body.postId);
    expect(retry.headers.get("location")).toBe(first.headers.get("location"));
    expect(retry.headers.get("idempotent-replayed")).toBe("true");

    const listed = await api(`/api/posts?brandId=${brandId}&limit=100`, { token });
    expect(
      listed.body.items.filter((post: { postId: string }) => post.postId === first.body.postId),
    ).toHaveLength(1);

    const conflict = await api("/api/content/create", {
      method: "POST",
      token,
      headers,
      json: brief(brandId, "A completely different topic for the same key"),
    });
    expect(conflict.status).toBe(409);
    expect(conflict.body.error.code).toBe("idempotency_conflict");
  });
});

describe("POST /api/content/create rate limit", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { RATE_LIMIT_GENERATE_PER_MINUTE: "2" } });
  });
  afterAll(() => server.stop());

  it("answers 429 rate_limited with Retry-After past the per-minute limit", async () => {
    const { accessToken: token } = await signInAsDemo(server.url);
    const brandId = await demoBrandId(api, token, server.url);
    const send = () =>
      api("/api/content/create", { method: "POST", server: server.url, token, json: brief(brandId) });
    const first = await send();
    expect(first.status).toBe(201);
    expect(first.headers.get("x-ratelimit-limit")).toBe("2");
    expect(first.headers.get("x-ratelimit-remaining")).toBe("1");
    expect((await send()).status).toBe(201);
    // Fixed one-minute windows: if one ends between these requests, the new window lets 2 more through.
    let limited = await send();
    for (let attempt = 0; attempt < 2 && limited.status === 201; attempt++) limited = await send();
    expect(limited.status).toBe(429);
    expect(limited.body.error).toMatchObject({ code: "rate_limited", retryable: true });
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(limited.headers.get("x-ratelimit-remaining")).toBe("0");
  });
});

describe("POST /api/video/jobs with an Idempotency-Key", () => {
  it("creates one job for a retried request and counts it once against the quota", async () => {
    const { accessToken: token } = await signInAsDemo(baseUrl());
    const brandId = await demoBrandId(api, token);
    const body = {
      brandId,
      mode: "regular",
      script: "Fresh beans, roasted every morning in our café. Come in and taste the difference.",
    };
    const headers = { "idempotency-key": `video-${Date.now()}` };
    const first = await api("/api/video/jobs", { method: "POST", token, headers, json: body });
    const retry = await api("/api/video/jobs", { method: "POST", token, headers, json: body });
    expect(first.status).toBe(202);
    expect(retry.status).toBe(202);
    expect(retry.body.jobId).toBe(first.body.jobId);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    const jobs = await api(`/api/video/jobs?brandId=${brandId}`, { token });
    expect(jobs.body.items.filter((job: { jobId: string }) => job.jobId === first.body.jobId)).toHaveLength(
      1,
    );
  });
});
