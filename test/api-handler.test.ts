import { NextRequest } from "next/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { withApi } from "@/lib/api/handler";
import { readJson } from "@/lib/api/read-request";
import { errorEnvelope } from "@/lib/contracts/common";
import { defineOperation } from "@/lib/contracts/operation";
import { ApiError } from "@/lib/errors/api-error";
import { ERROR_CODES } from "@/lib/errors/error-codes";

const schema = z.object({ topic: z.string().min(1), channel: z.enum(["telegram", "instagram"]) });
const echo = withApi(async (req) => Response.json(await readJson(req, schema)), { docId: "echo" });

function post(body: string, contentType = "application/json") {
  return new NextRequest("http://localhost/api/echo", {
    method: "POST",
    body,
    headers: { "content-type": contentType },
  });
}

async function envelope(response: Response) {
  expect(response.headers.get("content-type")).toMatch(/application\/json/);
  const body = errorEnvelope.parse(await response.json());
  expect(body.error.requestId).toBe(response.headers.get("x-request-id"));
  return body.error;
}

afterEach(() => vi.restoreAllMocks());

describe("withApi", () => {
  it("passes a valid body through and sets X-Request-Id", async () => {
    const response = await echo(post(JSON.stringify({ topic: "coffee", channel: "telegram" })));
    expect(response.status).toBe(200);
    expect(response.headers.get("x-request-id")).toMatch(/^req_/);
    expect(await response.json()).toEqual({ topic: "coffee", channel: "telegram" });
  });

  it("answers malformed JSON with 400 invalid_request", async () => {
    const response = await echo(post("{not json"));
    expect(response.status).toBe(400);
    const error = await envelope(response);
    expect(error).toMatchObject({
      code: "invalid_request",
      retryable: false,
      docUrl: "/api-docs/echo#errors",
    });
    expect(error.message).toMatch(/not valid JSON/);
  });

  it("answers a wrong content type with 400 invalid_request", async () => {
    const response = await echo(post("topic=coffee", "application/x-www-form-urlencoded"));
    expect(response.status).toBe(400);
    expect((await envelope(response)).message).toMatch(/Content-Type: application\/json/);
  });

  it("answers a schema violation with 400 and the fields in details", async () => {
    const response = await echo(post(JSON.stringify({ topic: "", channel: "fax" })));
    expect(response.status).toBe(400);
    const error = await envelope(response);
    expect(error.code).toBe("invalid_request");
    const paths = (error.details as { path: string }[]).map((issue) => issue.path).sort();
    expect(paths).toEqual(["channel", "topic"]);
  });

  it.each(Object.entries(ERROR_CODES))("maps ApiError %s to HTTP %s", async (code, entry) => {
    const handler = withApi(async () => {
      throw new ApiError(code as keyof typeof ERROR_CODES, `failure ${code}`, {
        headers: { "Retry-After": "7" },
      });
    });
    const response = await handler(post("{}"));
    expect(response.status).toBe(entry.status);
    expect(response.headers.get("retry-after")).toBe("7");
    const error = await envelope(response);
    expect(error).toMatchObject({ code, message: `failure ${code}`, retryable: entry.retryable });
    if (code === "unauthorized") {
      expect(response.headers.get("www-authenticate")).toBe('Bearer error="invalid_token"');
    }
  });

  it("hides unexpected errors behind internal_error and logs them with the requestId", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const handler = withApi(async () => {
      throw new Error("database exploded: password=hunter2");
    });
    const response = await handler(post("{}"));
    expect(response.status).toBe(500);
    const error = await envelope(response);
    expect(error).toMatchObject({ code: "internal_error", retryable: true });
    expect(error.message).not.toMatch(/exploded/);
    expect(logged).toHaveBeenCalledTimes(1);
    const line = JSON.parse(String(logged.mock.calls[0][0]));
    expect(line).toMatchObject({ level: "error", event: "unhandled_error", requestId: error.requestId });
    expect(line.error.message).toMatch(/exploded/);
  });
});

// A route declared by its operation: withApi(operation, handler) reads what the operation declares.
const itemOperation = defineOperation({
  id: "echo-item",
  title: "Echo an item",
  method: "POST",
  path: "/api/items/{itemId}",
  auth: "none",
  summary: "Echoes what it read.",
  pathParams: z.object({ itemId: z.string().regex(/^itm_\w+$/) }),
  query: z.object({ mode: z.enum(["plain", "loud"]).default("plain") }),
  body: schema,
  responses: { 200: { description: "What was read." } },
  errors: ["invalid_request"],
});
const echoItem = withApi(itemOperation, async ({ params, query, body, principal }) =>
  Response.json({ params, query, body, principal }),
);
const privateItem = withApi({ ...itemOperation, auth: "bearer" as const }, async () => Response.json({}));

function postItem(itemId: string, body: unknown, search = "") {
  return new NextRequest(`http://localhost/api/items/${itemId}${search}`, {
    method: "POST",
    body: JSON.stringify(body),
    headers: { "content-type": "application/json" },
  });
}
const route = (itemId: string) => ({ params: Promise.resolve({ itemId }) });

describe("withApi(operation, handler)", () => {
  it("hands the handler the path parameters, query and body the operation declares, parsed", async () => {
    const response = await echoItem(
      postItem("itm_1", { topic: "tea", channel: "instagram" }, "?mode=loud"),
      route("itm_1"),
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      params: { itemId: "itm_1" },
      query: { mode: "loud" },
      body: { topic: "tea", channel: "instagram" },
      principal: null,
    });
  });

  it("answers a malformed path parameter 404, a bad query or body 400, linking the operation's card", async () => {
    const notFound = await envelope(
      await echoItem(postItem("nope", { topic: "tea", channel: "telegram" }), route("nope")),
    );
    expect(notFound).toMatchObject({ code: "not_found", docUrl: "/api-docs/echo-item#errors" });
    const badQuery = await echoItem(
      postItem("itm_1", { topic: "tea", channel: "telegram" }, "?mode=quiet"),
      route("itm_1"),
    );
    expect(badQuery.status).toBe(400);
    expect((await envelope(badQuery)).details).toEqual([{ path: "mode", message: expect.any(String) }]);
    const badBody = await echoItem(postItem("itm_1", { topic: "tea", channel: "fax" }), route("itm_1"));
    expect((await envelope(badBody)).code).toBe("invalid_request");
  });

  it("answers 401 for a bearer operation without a token, before reading anything else", async () => {
    const response = await privateItem(postItem("nope", "not even the body's shape"), route("nope"));
    expect(response.status).toBe(401);
    expect((await envelope(response)).code).toBe("unauthorized");
  });

  it("derives the baseline errors in the contract: a path parameter's not_found and internal_error", () => {
    expect(itemOperation.errors).toEqual(["invalid_request", "not_found", "internal_error"]);
    const onBrand = defineOperation({
      ...itemOperation,
      auth: "bearer",
      permission: "brand.update",
      errors: [],
    });
    expect([...onBrand.errors].sort()).toEqual(
      ["forbidden", "internal_error", "not_found", "service_unavailable", "unauthorized"].sort(),
    );
  });
});
