import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TextModelChoice } from "@/lib/ai/model-choice";
import { ModerationUnavailableError, moderateWithProvider } from "@/lib/ai/moderation";

// The provider's /moderations over real HTTP, against a local server that answers as each case needs: what a
// model server without moderation, a broken one and a silent one mean for a draft.

type Answer = { status: number; body: string } | "silent";
let answer: Answer = { status: 200, body: "{}" };
const received: { path: string; authorization?: string; body: unknown }[] = [];
const server = http.createServer((req, res) => {
  let text = "";
  req.on("data", (chunk) => {
    text += chunk;
  });
  req.on("end", () => {
    received.push({ path: req.url ?? "", authorization: req.headers.authorization, body: JSON.parse(text) });
    if (answer === "silent") return;
    res.writeHead(answer.status, { "content-type": "application/json" });
    res.end(answer.body);
  });
});
let baseURL = "";

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const compatible = (timeoutMs = 5000, url = baseURL): TextModelChoice => ({
  provider: "openai-compatible",
  model: "m",
  apiKey: "sk-test",
  baseURL: url,
  moderation: true,
  timeoutMs,
});
const openai = (): TextModelChoice => ({
  provider: "openai",
  model: "m",
  apiKey: "sk-test",
  baseURL,
  moderation: true,
  timeoutMs: 5000,
});

describe("the provider's moderation", () => {
  it("sends the texts with the key and reads the flagged categories", async () => {
    answer = {
      status: 200,
      body: JSON.stringify({
        results: [
          { flagged: false, categories: { hate: false, violence: null } },
          { flagged: true, categories: { harassment: true, hate: false } },
        ],
      }),
    };
    expect(await moderateWithProvider(compatible(), ["a", "b"])).toEqual({
      flagged: true,
      categories: ["harassment"],
    });
    expect(received.at(-1)).toEqual({
      path: "/v1/moderations",
      authorization: "Bearer sk-test",
      body: { model: "omni-moderation-latest", input: ["a", "b"] },
    });
  });

  it("takes a compatible server's 404 as no moderation, and OpenAI's as an outage", async () => {
    answer = { status: 404, body: '{"error":"not found"}' };
    expect(await moderateWithProvider(compatible(), ["a"])).toBeNull();
    const outage = moderateWithProvider(openai(), ["a"]);
    await expect(outage).rejects.toBeInstanceOf(ModerationUnavailableError);
    await expect(outage).rejects.toThrow("The moderation service answered 404.");
  });

  it("fails as unavailable on an error status, on nonsense and on silence, and keeps working after", async () => {
    answer = { status: 503, body: '{"error":"down"}' };
    await expect(moderateWithProvider(compatible(), ["a"])).rejects.toThrow("answered 503");
    answer = { status: 200, body: "<html>oops</html>" };
    await expect(moderateWithProvider(compatible(), ["a"])).rejects.toThrow("answered nonsense");
    answer = "silent";
    await expect(moderateWithProvider(compatible(200), ["a"])).rejects.toBeInstanceOf(
      ModerationUnavailableError,
    );
    answer = { status: 200, body: JSON.stringify({ results: [{ flagged: false, categories: {} }] }) };
    expect(await moderateWithProvider(compatible(), ["a"])).toEqual({ flagged: false, categories: [] });
  });

  it("fails as unavailable when nothing listens", async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    await expect(
      moderateWithProvider(compatible(5000, `http://127.0.0.1:${port}/v1`), ["a"]),
    ).rejects.toThrow("did not answer");
  });
});
