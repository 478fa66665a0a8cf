import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { safeCallbackUrl } from "@/components/auth/safe-callback";
import { parseEnv } from "@/lib/config";
import { errorEnvelope } from "@/lib/contracts/common";
import { POST_STREAM_CONTENT_TYPE } from "@/lib/contracts/post-rules";
import { generatePostStream } from "@/lib/contracts/posts";
import { checkResponse } from "@/lib/docs/check-response";
import { baseSecurityHeaders, contentSecurityPolicy } from "@/lib/security/security-headers";
import { newUser } from "./support/auth";
import { api, baseUrl } from "./support/http";
import { createBrand } from "./support/post-fixtures";
import { rawRequest } from "./support/raw-http";

/** Issue 19: what a security reviewer and a typed client check at the edges, against the shared server. */
const RATE_LIMIT_HEADERS = ["x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"];
const rateLimitOf = (headers: Headers) => RATE_LIMIT_HEADERS.map((name) => headers.get(name));

let token: string;
let brandId: string;
const brief = () => ({
  brandId,
  channel: "linkedin",
  goal: "traffic",
  topic: "Our winter blend is back in every café from Monday",
});

beforeAll(async () => {
  ({ token } = await newUser(baseUrl()));
  brandId = await createBrand(api, token, {
    name: "Edge Roasters",
    tone: "warm and clear",
    voice: "Short, friendly sentences.",
  });
});

describe("X-RateLimit-* headers are sent where the document says", () => {
  it("sign-up's 201 carries them", async () => {
    const response = await api("/api/users", {
      method: "POST",
      json: { email: `rl-${randomBytes(4).toString("hex")}@example.test`, password: "rate-limit-pass-1" },
    });
    expect(response.status).toBe(201);
    for (const value of rateLimitOf(response.headers)) expect(value).toMatch(/^\d+$/);
  });

  it("generate-post's 201 with an Idempotency-Key carries them; its replay (not counted) carries none", async () => {
    const key = `edge-${randomBytes(6).toString("hex")}`;
    const first = await api("/api/content/create", {
      method: "POST",
      token,
      json: brief(),
      headers: { "idempotency-key": key },
    });
    expect(first.status).toBe(201);
    for (const value of rateLimitOf(first.headers)) expect(value).toMatch(/^\d+$/);
    const replay = await api("/api/content/create", {
      method: "POST",
      token,
      json: brief(),
      headers: { "idempotency-key": key },
    });
    expect(replay.status).toBe(201);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(rateLimitOf(replay.headers)).toEqual([null, null, null]);
    const document = (await api("/api/openapi.json")).body;
    const limitDoc = document.paths["/api/content/create"].post.responses["201"].headers["X-RateLimit-Limit"];
    expect(limitDoc.description).toContain("replay");
  });
});

describe("generate-post and its stream are two operations", () => {
  it("the JSON operation documents only a 201 Post; the stream operation a 200 application/x-ndjson", async () => {
    const document = (await api("/api/openapi.json")).body;
    const json = document.paths["/api/content/create"].post.responses;
    expect(Object.keys(json).filter((status) => status.startsWith("2"))).toEqual(["201"]);
    expect(Object.keys(json["201"].content)).toEqual(["application/json"]);
    const stream = document.paths["/api/content/create/stream"].post.responses;
    expect(Object.keys(stream["200"].content)).toEqual([POST_STREAM_CONTENT_TYPE]);
  });

  it("the JSON operation answers JSON even when asked for NDJSON", async () => {
    const response = await api("/api/content/create", {
      method: "POST",
      token,
      json: brief(),
      headers: { accept: POST_STREAM_CONTENT_TYPE },
    });
    expect(response.status).toBe(201);
    expect(response.headers.get("content-type")).toContain("application/json");
    expect(response.body.postId).toMatch(/^pst_/);
  });
});

describe("invalid_request always carries details as [{ path, message }]", () => {
  it("also where no field is to blame (a body that is not JSON)", async () => {
    const response = await api("/api/brands", {
      method: "POST",
      token,
      body: "{not json",
      headers: { "content-type": "application/json" },
    });
    expect(response.status).toBe(400);
    const { error } = errorEnvelope.parse(response.body);
    expect(error.code).toBe("invalid_request");
    expect(error.details).toEqual([{ path: "(request)", message: error.message }]);
  });
});

describe("a raw '#' in the request target (issue 39, item 17)", () => {
  it("answers 400 in the envelope with X-Request-Id, on /api and on pages, never Next's bare 405", async () => {
    for (const [method, path] of [
      ["POST", `/api/brands/${brandId}#frag/logo`],
      ["GET", `/api/brands/${brandId}#x`],
      ["GET", "/api/brands?limit=1#x"],
      ["GET", "/studio#frag/x"],
    ]) {
      const response = await rawRequest(baseUrl(), {
        method,
        path,
        headers: { authorization: `Bearer ${token}` },
      });
      expect(response.status, `${method} ${path}`).toBe(400);
      expect(response.headers["x-request-id"], path).toMatch(/\S/);
      const { error } = errorEnvelope.parse(JSON.parse(response.text));
      expect(error.code).toBe("invalid_request");
      expect(error.details).toEqual([{ path: "path", message: expect.stringMatching(/%23/) }]);
    }
  });
});

describe("security headers on every response", () => {
  it("pages, /api, /media and Next's static files send nosniff, Referrer-Policy and Permissions-Policy", async () => {
    const home = await rawRequest(baseUrl(), { method: "GET", path: "/" });
    const scripts = [...home.text.matchAll(/<script[^>]+src="(\/_next\/static\/[^"]+)"/g)].map((m) => m[1]);
    expect(scripts.length).toBeGreaterThan(0);
    const paths = ["/", "/login", "/api/health", "/api/nothing", "/media/nothing.mp4", scripts[0]];
    for (const path of paths) {
      const response = await rawRequest(baseUrl(), { method: "GET", path });
      expect(response.headers["x-content-type-options"], path).toBe("nosniff");
      expect(response.headers["referrer-policy"], path).toBe("strict-origin-when-cross-origin");
      expect(response.headers["permissions-policy"], path).toContain("camera=()");
      // APP_URL is http here: no HSTS (it would pin browsers to https on a plain-http host).
      expect(response.headers["strict-transport-security"], path).toBeUndefined();
    }
    const csp = String(home.headers["content-security-policy"]);
    const nonce = csp.match(/'nonce-([^']+)'/)?.[1];
    expect(nonce).toBeTruthy();
    // Next put the nonce on its inline scripts.
    expect(home.text).toContain(`nonce="${nonce}"`);
    for (const directive of [
      "frame-ancestors 'none'",
      "object-src 'none'",
      "base-uri 'self'",
      "form-action 'self'",
    ])
      expect(csp).toContain(directive);
    // A fresh nonce each time.
    const again = await rawRequest(baseUrl(), { method: "GET", path: "/" });
    expect(again.headers["content-security-policy"]).not.toBe(csp);
  });

  it("an unknown page answers 404 with the site's not-found page, rendered per request with the nonce", async () => {
    const response = await rawRequest(baseUrl(), { method: "GET", path: "/nope" });
    expect(response.status).toBe(404);
    expect(response.text).toContain("Page not found");
    const nonce = String(response.headers["content-security-policy"]).match(/'nonce-([^']+)'/)?.[1];
    expect(nonce).toBeTruthy();
    // Every script carries it: a prerendered page's scripts carry none, and the policy blocks them.
    const scripts = [...response.text.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) expect(script).toContain(`nonce="${nonce}"`);
  });
});

describe("the sign-in callbackUrl stays on this site", () => {
  it("refuses //host, /\\host, and control characters that browsers drop", () => {
    for (const hostile of [
      "//evil.example",
      "/\\evil.example",
      "/\t/evil.example",
      "/%0a",
      "https://evil.example",
    ])
      expect(safeCallbackUrl(hostile.replace("%0a", "\n/evil.example")), hostile).toBe("/studio");
    expect(safeCallbackUrl("/brands/brd_x?tab=1")).toBe("/brands/brd_x?tab=1");
  });
});

describe("the docs test panel checks a streamed answer line by line", () => {
  it("passes NDJSON whose every line is an event, and names the line that is not", () => {
    const good = `${JSON.stringify({ type: "partial", draft: { caption: "Hi" } })}\n${JSON.stringify({ type: "retry", attempt: 1 })}\n`;
    expect(checkResponse(generatePostStream, 200, good)).toMatchObject({ verdict: "pass" });
    const bad = `${JSON.stringify({ type: "partial", draft: { caption: "Hi" } })}\n{"type":"nope"}\n`;
    const result = checkResponse(generatePostStream, 200, bad);
    expect(result.verdict).toBe("fail");
    expect(JSON.stringify(result)).toContain("(line 2)");
  });
});

describe("the Content-Security-Policy follows the configuration", () => {
  const env = (source: Record<string, string>) =>
    parseEnv({ NODE_ENV: "test", AUTH_SECRET: "x".repeat(32), ...source });

  it("lets media and images come from the S3 endpoint only when media is in S3", () => {
    const bucket = {
      MEDIA_STORE: "s3",
      S3_BUCKET: "media",
      S3_ACCESS_KEY_ID: "id",
      S3_SECRET_ACCESS_KEY: "secret",
    };
    const s3 = env({ ...bucket, S3_ENDPOINT: "https://s3.example.test:9000/", S3_FORCE_PATH_STYLE: "true" });
    const policy = contentSecurityPolicy("n0nce", s3);
    expect(policy).toContain("media-src 'self' blob: https://s3.example.test:9000;");
    expect(policy).toContain("img-src 'self' data: blob: https://s3.example.test:9000;");
    // Virtual-hosted addressing (AWS's default) puts the bucket in the host name.
    expect(contentSecurityPolicy("n0nce", env({ ...bucket, S3_REGION: "eu-west-1" }))).toContain(
      "media-src 'self' blob: https://media.s3.eu-west-1.amazonaws.com;",
    );
    expect(contentSecurityPolicy("n0nce", env({}))).toContain("media-src 'self' blob:;");
  });

  it("allows the OAuth hosts in form-action when configured, eval only in development, HSTS only on https", () => {
    const oauth = env({
      GITHUB_ID: "gh",
      GITHUB_SECRET: "s",
      GOOGLE_CLIENT_ID: "g",
      GOOGLE_CLIENT_SECRET: "s",
    });
    expect(contentSecurityPolicy("n", oauth)).toContain(
      "form-action 'self' https://github.com https://accounts.google.com",
    );
    expect(contentSecurityPolicy("n", env({}))).not.toContain("unsafe-eval");
    expect(contentSecurityPolicy("n", env({ NODE_ENV: "development" }))).toContain("'unsafe-eval'");
    expect(baseSecurityHeaders(env({ APP_URL: "https://studio.example.test" }))).toHaveProperty(
      "Strict-Transport-Security",
    );
    expect(baseSecurityHeaders(env({ APP_URL: "http://127.0.0.1:3000" }))).not.toHaveProperty(
      "Strict-Transport-Security",
    );
  });
});
