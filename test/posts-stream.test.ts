import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorEnvelope } from "@/lib/contracts/common";
import {
  POST_STREAM_CONTENT_TYPE,
  type PostStreamEvent,
  post as postSchema,
  postStreamEvent,
} from "@/lib/contracts/posts";
import { signInAsDemo } from "./support/auth";
import { api } from "./support/http";
import { demoBrandId } from "./support/post-fixtures";
import { startTestServer, type TestServer } from "./support/test-server";

const TOPIC = "Our new Ethiopian single-origin espresso, roasted in small batches";

let server: TestServer;
let token: string;
let brandId: string;

beforeAll(async () => {
  // Its own server, so the cancel test can read the server's log.
  server = await startTestServer();
  token = (await signInAsDemo(server.url)).accessToken;
  brandId = await demoBrandId(api, token, server.url);
}, 120_000);
afterAll(() => server?.stop());

const brief = (body: Record<string, unknown> = {}) => ({
  brandId,
  channel: "instagram",
  goal: "sales",
  topic: TOPIC,
  ...body,
});

function streamRequest(
  body: Record<string, unknown>,
  init: { signal?: AbortSignal; headers?: Record<string, string> } = {},
) {
  return fetch(`${server.url}/api/content/create/stream`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      accept: POST_STREAM_CONTENT_TYPE,
      ...init.headers,
    },
    body: JSON.stringify(body),
    signal: init.signal,
  });
}

/** Reads NDJSON events off a response body, each parsed with the contract. */
async function* events(response: Response): AsyncGenerator<PostStreamEvent> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    buffer += value ?? "";
    const lines = buffer.split("\n");
    buffer = lines.pop() ?? "";
    for (const line of lines) if (line.trim()) yield postStreamEvent.parse(JSON.parse(line));
    if (done) return;
  }
}

async function postCount() {
  const page = await api(`/api/posts?brandId=${brandId}&limit=100`, { token, server: server.url });
  expect(page.status).toBe(200);
  return page.body.items.length as number;
}

describe("POST /api/content/create/stream (application/x-ndjson)", () => {
  it("streams the draft field by field (caption, hashtags, media plan), then saves it once", async () => {
    const before = await postCount();
    const response = await streamRequest(brief({ seed: 4242 }));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain(POST_STREAM_CONTENT_TYPE);
    expect(response.headers.get("x-request-id")).toMatch(/^req_/);

    const firstSeen: string[] = [];
    const captions: string[] = [];
    let done: Extract<PostStreamEvent, { type: "done" }> | null = null;
    for await (const event of events(response)) {
      expect(done, "nothing follows the done event").toBeNull();
      if (event.type === "partial") {
        for (const field of ["caption", "hashtags", "mediaPlan"] as const) {
          if (event.draft[field] !== undefined && !firstSeen.includes(field)) firstSeen.push(field);
        }
        if (event.draft.caption !== undefined) captions.push(event.draft.caption);
      }
      if (event.type === "done") done = event;
      expect(event.type).not.toBe("error");
    }
    expect(firstSeen).toEqual(["caption", "hashtags", "mediaPlan"]);
    // The caption grows over several events rather than arriving whole.
    expect(new Set(captions).size).toBeGreaterThan(3);
    for (let i = 1; i < captions.length; i++) expect(captions[i].startsWith(captions[i - 1])).toBe(true);

    expect(done).not.toBeNull();
    const saved = postSchema.parse(done?.post);
    expect(captions.at(-1)).toBe(saved.caption);
    expect(await postCount()).toBe(before + 1);
    const read = await api(`/api/posts/${saved.postId}`, { token, server: server.url });
    // GET adds the review history (PostDetail), empty for a new draft.
    const { reviewHistory, ...readPost } = read.body;
    expect(reviewHistory).toEqual([]);
    expect(readPost).toEqual(done?.post);

    // The same brief and seed through the JSON answer write the same post: one contract, two deliveries.
    const json = await api("/api/content/create", {
      method: "POST",
      token,
      server: server.url,
      json: brief({ seed: 4242 }),
    });
    expect(json.status).toBe(201);
    expect(json.body.caption).toBe(saved.caption);
    expect(json.body.hashtags).toEqual(saved.hashtags);
    // The same plan; each post has images of its own (their cards, under its own id).
    const withoutImages = (plan: typeof saved.mediaPlan) =>
      plan.items.map(({ imageUrl: _url, ...item }) => item);
    expect(withoutImages(json.body.mediaPlan)).toEqual(withoutImages(saved.mediaPlan));
  });

  it("answers the brief checks as ordinary JSON errors before streaming, and saves nothing", async () => {
    const before = await postCount();
    const short = await streamRequest(brief({ topic: "Cold brew" }));
    expect(short.status).toBe(422);
    expect(short.headers.get("content-type")).toContain("application/json");
    expect(errorEnvelope.parse(await short.json()).error.code).toBe("brief_too_short");

    const invalid = await streamRequest(brief({ channel: "myspace" }));
    expect(invalid.status).toBe(400);
    expect(errorEnvelope.parse(await invalid.json()).error.code).toBe("invalid_request");

    const missing = await streamRequest(brief({ brandId: "brd_doesnotexist00" }));
    expect(missing.status).toBe(404);

    const keyed = await streamRequest(brief(), { headers: { "idempotency-key": "stream-1" } });
    expect(keyed.status).toBe(400);
    expect(errorEnvelope.parse(await keyed.json()).error.message).toContain("Idempotency-Key");

    const anonymous = await fetch(`${server.url}/api/content/create/stream`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: POST_STREAM_CONTENT_TYPE },
      body: JSON.stringify(brief()),
    });
    expect(anonymous.status).toBe(401);
    expect(await postCount()).toBe(before);
  });

  it("stops and saves nothing when the caller cancels mid-stream", async () => {
    const before = await postCount();
    const controller = new AbortController();
    const response = await streamRequest(brief({ seed: 77 }), { signal: controller.signal });
    expect(response.status).toBe(200);
    const requestId = response.headers.get("x-request-id");
    let partials = 0;
    try {
      for await (const event of events(response)) {
        expect(event.type).toBe("partial");
        if (++partials === 2) controller.abort();
      }
    } catch (error) {
      expect((error as Error).name).toBe("AbortError");
    }
    expect(partials).toBe(2);
    // The server notices the cancel, stops the model and logs it; only then is the count meaningful.
    const logLines = () => server.logs().split("\n");
    await expect
      .poll(
        () =>
          logLines().some((line) => line.includes("post_stream_canceled") && line.includes(`${requestId}`)),
        {
          timeout: 20_000,
        },
      )
      .toBe(true);
    expect(
      logLines().filter((line) => line.includes("post_generated") && line.includes(`${requestId}`)),
    ).toEqual([]);
    expect(await postCount()).toBe(before);
  });
});
