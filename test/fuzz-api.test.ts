import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorEnvelope } from "@/lib/contracts/common";
import { signIn, signInAsDemo } from "./support/auth";
import { fromSchema, hostileString, type JsonSchema } from "./support/hostile";
import { api } from "./support/http";
import { createBrand, demoBrandId } from "./support/post-fixtures";
import { rawRequest } from "./support/raw-http";
import { startTestServer, type TestServer } from "./support/test-server";

/** A generated value as path or query text; objects (some with no prototype) as JSON. */
const asText = (value: unknown) =>
  value !== null && typeof value === "object" ? JSON.stringify(value) : String(value);

/** At least this many requests a run (issue 14); FUZZ_REQUESTS raises it. */
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 3000);
const ODD_METHODS = [
  "PROPFIND",
  "TRACE",
  "PUT",
  "PATCH",
  "DELETE",
  "OPTIONS",
  "HEAD",
  "MKCOL",
  "LOCK",
  "POST",
  // Unknown to Node's HTTP parser: refused before any request event (lib/server/http-guard.ts, clientError).
  "FOO",
  "BREW",
];
/** `.` and `..`, raw and percent-encoded in every case mix: refused by the gate (400), never normalised by Next. */
const DOT_SEGMENTS = [".", "..", "%2e", "%2E", "%2e%2e", "%2E%2e", ".%2E", "%2e."];
const BAD_SEGMENTS = ["%ZZ", "%c0%ae", "%00", "%E0%A4%A", "..%2f..%2f", "%F0%9F%98", "%ED%A0%80"];

/** encodeURIComponent, except that a lone surrogate becomes its (invalid) UTF-8 bytes instead of throwing. */
function encodeSegment(value: string) {
  try {
    return encodeURIComponent(value);
  } catch {
    return "%ED%A0%80";
  }
}

type Operation = { method: string; path: string; schema: JsonSchema };
type Sent = { method: string; url: string; body?: string; contentType?: string; token: boolean };

const stats = { requests: 0, errors: 0, serverErrors: [] as string[], missingEnvelope: [] as string[] };

describe("fuzzing every operation in the OpenAPI document", () => {
  let server: TestServer;
  let token: string;
  let document: JsonSchema;
  let pools: Record<string, string[]>;

  beforeAll(async () => {
    // Sign-ups each cost a scrypt hash: a low limit keeps the run bounded (429 is a fine answer).
    server = await startTestServer({ env: { RATE_LIMIT_SIGNUP_PER_MINUTE: "3", VIDEO_MONTHLY_QUOTA: "0" } });
    token = (await signInAsDemo(server.url)).accessToken;
    const brandId = await demoBrandId(api, token, server.url);
    // Another user's brand: video jobs for it answer 404, so the fuzz never starts real renders.
    await api("/api/users", {
      method: "POST",
      server: server.url,
      json: { email: "other@example.test", password: "another-password-1" },
    });
    const other = (await signIn(server.url, "other@example.test", "another-password-1")).accessToken;
    const foreign = await createBrand(api, other, { name: "Not yours" }, server.url);
    const post = await api("/api/content/create", {
      method: "POST",
      server: server.url,
      token,
      json: {
        brandId,
        channel: "linkedin",
        goal: "traffic",
        topic: "Our new single-origin roast arrives this week",
      },
    });
    pools = {
      brd: [brandId, foreign, "brd_AAAAAAAAAAAAAAAA"],
      pst: [post.body.postId, "pst_AAAAAAAAAAAAAAAA"],
      vjb: ["vjb_AAAAAAAAAAAAAAAA"],
      key: ["key_AAAAAAAAAAAAAAAA"],
    };
    document = (await api("/api/openapi.json", { server: server.url })).body;
  });

  afterAll(async () => {
    console.log(
      `fuzz: ${stats.requests} requests, ${stats.errors} error answers, ${stats.serverErrors.length} 5xx, ` +
        `${stats.missingEnvelope.length} without envelope or X-Request-Id`,
    );
    await server?.stop();
  });

  function operationsOf(): Operation[] {
    return Object.entries(document.paths as Record<string, JsonSchema>).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, schema]) => ({ method: method.toUpperCase(), path, schema })),
    );
  }

  function requestFor(operation: Operation): fc.Arbitrary<Sent> {
    const params = (operation.schema.parameters ?? []) as JsonSchema[];
    const pathParams = params.filter((param) => param.in === "path");
    const queryParams = params.filter((param) => param.in === "query");
    const body = operation.schema.requestBody?.content?.["application/json"]?.schema as
      | JsonSchema
      | undefined;
    const multipart = operation.schema.requestBody?.content?.["multipart/form-data"] !== undefined;
    const segment = (param: JsonSchema) =>
      fc.oneof(
        {
          weight: 4,
          arbitrary: fromSchema(param.schema, document, pools).map((value) => encodeSegment(asText(value))),
        },
        { weight: 1, arbitrary: fc.constantFrom(...BAD_SEGMENTS) },
        { weight: 1, arbitrary: fc.constantFrom(...DOT_SEGMENTS) },
      );
    const query = fc.record(
      Object.fromEntries(
        queryParams.map((param) => [
          param.name,
          fc.oneof(
            fromSchema(param.schema, document, pools).map((value) => asText(value)),
            hostileString,
            // A crafted cursor: base64url of a date out of range, a NUL, or junk.
            fc
              .constantFrom(
                '["+275760-09-13T00:00:00.000Z","pst_AAAAAAAAAAAAAAAA"]',
                '["2025-01-01T00:00:00Z","\u0000"]',
                "x|y",
                "99999-01-01|vjb_x",
              )
              .map((raw) => Buffer.from(raw).toString("base64url")),
          ),
        ]),
      ),
      { requiredKeys: [] },
    );
    const bodyArbitrary: fc.Arbitrary<{ body?: string; contentType?: string }> = fc.oneof(
      {
        weight: 6,
        arbitrary: body
          ? fromSchema(body, document, pools).map((value) => ({
              body: JSON.stringify(value),
              contentType: "application/json",
            }))
          : fc.constant({}),
      },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          { body: "{not json", contentType: "application/json" },
          { body: "null", contentType: "application/json" },
          { body: '{"a":1}', contentType: "text/plain" },
          {
            body: "--x\r\n\r\n",
            contentType: multipart ? "multipart/form-data; boundary=x" : "application/json",
          },
          { body: `[${"[".repeat(5000)}${"]".repeat(5000)}]`, contentType: "application/json" },
        ),
      },
    );
    return fc
      .record({
        segments: fc.tuple(...pathParams.map(segment)),
        query,
        body: bodyArbitrary,
        method: fc.oneof(
          { weight: 8, arbitrary: fc.constant(operation.method) },
          { weight: 1, arbitrary: fc.constantFrom(...ODD_METHODS) },
        ),
        token: fc.oneof(
          { weight: 6, arbitrary: fc.constant(true) },
          { weight: 1, arbitrary: fc.constant(false) },
        ),
        slash: fc.oneof(
          { weight: 12, arbitrary: fc.constant("") },
          { weight: 1, arbitrary: fc.constant("/") },
        ),
      })
      .map(({ segments, query, body, method, token: withToken, slash }) => {
        let index = 0;
        const path = operation.path.replace(/\{\w+\}/g, () => segments[index++] as string);
        const search = new URLSearchParams(query as Record<string, string>).toString();
        const hasBody = !["GET", "HEAD", "OPTIONS", "TRACE"].includes(method);
        return {
          method,
          url: `${path}${slash}${search ? `?${search}` : ""}`,
          ...(hasBody ? body : {}),
          token: withToken,
        };
      });
  }

  async function send(request: Sent) {
    const headers: Record<string, string> = {};
    if (request.token) headers.authorization = `Bearer ${token}`;
    if (request.contentType) headers["content-type"] = request.contentType;
    const response = await rawRequest(server.url, {
      method: request.method,
      path: request.url,
      headers,
      body: request.body,
    });
    const text = response.text;
    stats.requests++;
    const label = `${request.method} ${request.url.slice(0, 120)} → ${response.status}`;
    if (response.status >= 500) stats.serverErrors.push(`${label} ${text.slice(0, 200)}`);
    const requestId = response.headers["x-request-id"];
    if (!requestId) stats.missingEnvelope.push(`${label} (no X-Request-Id)`);
    if (response.status >= 400 && request.method !== "HEAD") {
      stats.errors++;
      let envelope: ReturnType<typeof errorEnvelope.safeParse> | undefined;
      try {
        envelope = errorEnvelope.safeParse(JSON.parse(text));
      } catch {}
      if (!envelope?.success || envelope.data.error.requestId !== requestId) {
        stats.missingEnvelope.push(`${label} ${text.slice(0, 200)}`);
      } else if (text.length > 20_000) {
        stats.missingEnvelope.push(`${label} echoes ${text.length} characters`);
      }
    }
  }

  it("refuses a dot segment (raw or encoded) on every path template with 400 invalid_request", async () => {
    const wrong: string[] = [];
    const templates = Object.keys(document.paths as Record<string, unknown>);
    for (const template of templates) {
      const parts = template.split("/").length;
      for (const dot of DOT_SEGMENTS) {
        // In the place of each segment after /api, and appended after the last.
        for (let at = 2; at <= parts; at++) {
          const segments = template.replace(/\{\w+\}/g, "x").split("/");
          segments.splice(at, at < parts ? 1 : 0, dot);
          const url = segments.join("/");
          const response = await rawRequest(server.url, { method: "GET", path: url });
          const body = (() => {
            try {
              return JSON.parse(response.text);
            } catch {
              return undefined;
            }
          })();
          if (
            response.status !== 400 ||
            body?.error?.code !== "invalid_request" ||
            body.error.requestId !== response.headers["x-request-id"]
          ) {
            wrong.push(`GET ${url} → ${response.status} ${response.text.slice(0, 80)}`);
          }
        }
      }
    }
    expect(wrong.slice(0, 10)).toEqual([]);
  }, 120_000);

  it("answers methods Node does not know in the envelope, with X-Request-Id", async () => {
    const known = await rawRequest(server.url, { method: "FOO", path: "/api/health" });
    expect(known.status).toBe(405);
    expect(known.headers.allow).toContain("GET");
    const unknown = await rawRequest(server.url, { method: "BREW", path: "/api/nothing-here" });
    expect(unknown.status).toBe(404);
    const page = await rawRequest(server.url, { method: "FOO", path: "/login" });
    expect(page.status).toBe(405);
    for (const [response, code] of [
      [known, "method_not_allowed"],
      [unknown, "not_found"],
      [page, "method_not_allowed"],
    ] as const) {
      const envelope = errorEnvelope.parse(JSON.parse(response.text));
      expect(envelope.error.code).toBe(code);
      expect(envelope.error.requestId).toBe(response.headers["x-request-id"]);
      expect(response.headers["x-content-type-options"]).toBe("nosniff");
    }
  });

  it(`sends at least ${REQUESTS} requests: no 5xx, every error in the envelope with X-Request-Id`, async () => {
    const operations = operationsOf();
    expect(operations.length).toBeGreaterThan(10);
    const perOperation = Math.ceil(REQUESTS / operations.length);
    for (const operation of operations) {
      await fc.assert(
        fc.asyncProperty(requestFor(operation), async (request) => {
          await send(request);
        }),
        { numRuns: perOperation, seed: Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31) },
      );
    }
    expect(stats.requests).toBeGreaterThanOrEqual(REQUESTS);
    expect(stats.serverErrors.slice(0, 20)).toEqual([]);
    expect(stats.missingEnvelope.slice(0, 20)).toEqual([]);
  }, 600_000);
});
