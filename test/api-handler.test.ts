import { NextRequest } from "next/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { withApi } from "@/lib/api/handler";
import { readJson } from "@/lib/api/read-request";
import { errorEnvelope } from "@/lib/contracts/common";
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
