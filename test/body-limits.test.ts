import fs from "node:fs";
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorEnvelope } from "@/lib/contracts/common";
import { signInAsDemo } from "./support/auth";
import { api } from "./support/http";
import { startTestServer, type TestServer } from "./support/test-server";

const MB = 1024 * 1024;
const BODY_BYTES = 50 * MB;

/** The server process's resident memory (VmRSS), in bytes. */
function rss(pid: number) {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const kilobytes = Number(status.match(/^VmRSS:\s+(\d+) kB/m)?.[1]);
  return kilobytes * 1024;
}

/**
 * POSTs a 50 MB JSON-looking body, 1 MB at a time, with or without Content-Length (chunked), and stops
 * sending once the server has answered.
 */
function sendHugeBody(url: string, token: string, { declared }: { declared: boolean }) {
  const target = new URL("/api/brands", url);
  const chunk = Buffer.alloc(MB, 0x61);
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    let answered = false;
    const request = http.request(target, {
      method: "POST",
      headers: {
        authorization: `Bearer ${token}`,
        "content-type": "application/json",
        ...(declared ? { "content-length": String(BODY_BYTES) } : {}),
      },
    });
    request.on("response", (response) => {
      answered = true;
      let text = "";
      response.on("data", (data) => {
        text += data;
      });
      response.on("end", () => {
        request.destroy();
        resolve({ status: response.statusCode ?? 0, text });
      });
    });
    request.on("error", (error) => {
      if (!answered) reject(error);
    });
    let sent = 0;
    const pump = () => {
      while (!answered && sent < BODY_BYTES) {
        sent += chunk.length;
        if (!request.write(chunk)) return void request.once("drain", pump);
      }
      if (!answered) request.end();
    };
    request.write('{"name":"');
    pump();
  });
}

describe("body limits", () => {
  let server: TestServer;
  let token: string;

  beforeAll(async () => {
    server = await startTestServer();
    token = (await signInAsDemo(server.url)).accessToken;
  });
  afterAll(() => server?.stop());

  it("answers 413 payload_too_large to ten 50 MB bodies, and the server's memory stays within 50 MB", async () => {
    // Warm up the route (code loading, first database queries) before the baseline.
    for (let index = 0; index < 3; index++) {
      await api("/api/brands", { method: "POST", server: server.url, token, json: { name: "" } });
    }
    // …and the oversized-body path once each way (declared and chunked), so the baseline includes the
    // one-time growth of the heap's young generation and Node's buffer pools; what is measured is whether
    // bodies pile up.
    for (const declared of [true, false]) await sendHugeBody(server.url, token, { declared });
    const before = rss(server.pid);
    for (let index = 0; index < 10; index++) {
      const answer = await sendHugeBody(server.url, token, { declared: index % 2 === 0 });
      expect(answer.status).toBe(413);
      const envelope = errorEnvelope.parse(JSON.parse(answer.text));
      expect(envelope.error).toMatchObject({ code: "payload_too_large", retryable: false });
      expect(envelope.error.message).toMatch(/larger than 256 KB/);
    }
    // What the bodies left behind, once the server has had a moment to give freed heap back (V8's memory
    // reducer runs a few seconds after a burst); a body held whole, or buffers kept alive, would stay.
    let after = rss(server.pid);
    for (let waited = 0; after - before >= 50 * MB && waited < 20_000; waited += 1000) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      after = Math.min(after, rss(server.pid));
    }
    expect(after - before).toBeLessThan(50 * MB);
    console.log(
      `body limits: RSS ${Math.round(before / MB)} MB → ${Math.round(after / MB)} MB after ten 50 MB bodies`,
    );
  });

  it("accepts a body under the limit and never echoes a long unknown field name", async () => {
    const longKey = "k".repeat(200_000);
    const answer = await api("/api/brands", {
      method: "POST",
      server: server.url,
      token,
      json: { name: "Long key", [longKey]: 1 },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe("invalid_request");
    expect(answer.text.length).toBeLessThan(4000);
  });

  it("refuses NUL bytes and lone surrogates with 400 naming the field, also inside lists", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ name: "Nul\u0000brand" }, "name"],
      [{ name: "Fine", voice: "half \uD800 pair" }, "voice"],
      [{ name: "Fine", values: ["ok", "bad\uDC00"] }, "values.1"],
    ];
    for (const [body, path] of cases) {
      const answer = await api("/api/brands", { method: "POST", server: server.url, token, json: body });
      expect(answer.status).toBe(400);
      expect(answer.body.error.code).toBe("invalid_request");
      expect(answer.body.error.details).toContainEqual({
        path,
        message: expect.stringMatching(/NUL|surrogate/),
      });
    }
  });
});
