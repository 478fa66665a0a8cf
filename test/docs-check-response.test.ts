import { describe, expect, it } from "vitest";
import { backendConnectCheck } from "@/lib/contracts/health";
import { createApiKey, revokeApiKey } from "@/lib/contracts/keys";
import { checkResponse } from "@/lib/docs/check-response";
import { newUser } from "./support/auth";
import { api, baseUrl } from "./support/http";

const envelope = (code: string, docUrl: string) => ({
  error: { code, message: "m", retryable: false, requestId: "req_1", docUrl },
});

describe("the test panel's contract check", () => {
  it("passes a real response of a declared status", async () => {
    const { status, body } = await api("/api/health");
    expect(checkResponse(backendConnectCheck, status, body)).toEqual({
      verdict: "pass",
      against: "the 200 response schema",
    });
  });

  it("names every difference: wrong values, missing fields and fields the contract does not declare", async () => {
    const { body } = await api("/api/health");
    const drifted = { ...body, version: 1, checks: { ...body.checks, cache: "ok" }, uptime: 5 };
    delete drifted.time;
    const check = checkResponse(backendConnectCheck, 200, drifted);
    expect(check.verdict).toBe("fail");
    expect(check.verdict === "fail" && check.differences).toEqual(
      expect.arrayContaining([
        { path: "version", message: expect.stringMatching(/expected string/) },
        { path: "time", message: expect.stringMatching(/expected string/) },
        { path: "checks.cache", message: "Not in the contract." },
        { path: "uptime", message: "Not in the contract." },
      ]),
    );
  });

  it("accepts an error envelope only for the operation's own codes, under the code's HTTP status", async () => {
    const { token } = await newUser(baseUrl());
    const { status, body } = await api("/api/keys", { method: "POST", token, json: { name: "" } });
    expect(status).toBe(400);
    expect(checkResponse(createApiKey, status, body)).toMatchObject({ verdict: "pass" });

    const foreign = checkResponse(
      createApiKey,
      409,
      envelope("email_taken", "/api-docs/create-api-key#errors"),
    );
    expect(foreign).toMatchObject({
      verdict: "fail",
      differences: [{ path: "error.code", message: expect.stringContaining("not one of this operation") }],
    });
    const wrongStatus = checkResponse(
      createApiKey,
      500,
      envelope("invalid_request", "/api-docs/create-api-key#errors"),
    );
    expect(wrongStatus).toMatchObject({
      verdict: "fail",
      differences: [{ path: "(status)", message: '"invalid_request" is answered with HTTP 400, not 500.' }],
    });
  });

  it("checks that a 204 has no body", async () => {
    expect(checkResponse(revokeApiKey, 204, null)).toMatchObject({ verdict: "pass" });
    expect(checkResponse(revokeApiKey, 204, { ok: true })).toMatchObject({ verdict: "fail" });
  });

  it("rejects a success status the contract does not declare", () => {
    expect(checkResponse(revokeApiKey, 200, null)).toMatchObject({
      verdict: "fail",
      differences: [{ path: "(status)", message: "HTTP 200 is not in the contract (expected 204)." }],
    });
  });

  it("recognises the catch-all 404 of a route that does not exist yet", async () => {
    const { status, body } = await api("/api/keys/key_abcdefgh/rotate", { method: "POST" });
    expect(checkResponse(revokeApiKey, status, body)).toEqual({ verdict: "not_implemented" });
    // The operation's own 404 links its card, so it is an answer of the contract, not a missing route.
    const { token } = await newUser(baseUrl());
    const own = await api("/api/keys/key_abcdefgh", { method: "DELETE", token });
    expect(own.status).toBe(404);
    expect(checkResponse(revokeApiKey, own.status, own.body)).toMatchObject({ verdict: "pass" });
  });
});
