import { signInAsDemo } from "../test/support/auth";
import { percentile, sleep, timedRequest } from "./measure";
import type { AppServer } from "./servers";

export type AppSession = {
  server: AppServer;
  apiKey: string;
  token: string;
  brandId: string;
  /** A finished job (succeeded) polled by the throughput runs. */
  jobId: string;
  etag: string;
};

const SCRIPT =
  "Meet our new Ethiopian roast. Bright notes of blueberry and jasmine. Roasted in small batches every morning.";

async function call(
  server: AppServer,
  token: string,
  path: string,
  init: { method?: string; body?: unknown } = {},
) {
  const response = await timedRequest(`${server.url}${path}`, {
    method: init.method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(init.body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return { ...response, json: () => JSON.parse(response.body) };
}

/** Signs in as the demo user, makes an API key and one finished video job to poll. */
export async function prepareSession(server: AppServer): Promise<AppSession> {
  const { accessToken: token } = await signInAsDemo(server.url);
  const keyResponse = await call(server, token, "/api/keys", { method: "POST", body: { name: "bench" } });
  if (keyResponse.status !== 201) throw new Error(`API key: ${keyResponse.status} ${keyResponse.body}`);
  const apiKey = keyResponse.json().key as string;
  const brands = (await call(server, token, "/api/brands")).json() as { items: { brandId: string }[] };
  const brandId = brands.items[0].brandId;
  const created = await call(server, apiKey, "/api/video/jobs", {
    method: "POST",
    body: { brandId, script: SCRIPT, mode: "regular" },
  });
  if (created.status !== 202 && created.status !== 201)
    throw new Error(`Video job: ${created.status} ${created.body}`);
  const jobId = created.json().jobId as string;
  const deadline = Date.now() + 180_000;
  for (;;) {
    const poll = await call(server, apiKey, `/api/video/jobs/${jobId}`);
    const status = poll.json().status as string;
    if (status === "succeeded") {
      const etag = (await fetch(`${server.url}/api/video/jobs/${jobId}`, {
        headers: { authorization: `Bearer ${apiKey}` },
      }).then((r) => r.headers.get("etag"))) as string;
      return { server, apiKey, token, brandId, jobId, etag };
    }
    if (status === "failed" || status === "canceled" || Date.now() > deadline)
      throw new Error(`The bench's video job ended ${status}: ${poll.body}`);
    await sleep(300);
  }
}

/** The body of the i-th measured create (the trivial POST sends the same). */
export function createBody(brandId: string, i: number, seedBase: number) {
  return {
    brandId,
    channel: (["telegram", "instagram", "linkedin"] as const)[i % 3],
    topic: "Our new single-origin Ethiopian roast arrives this week",
    goal: "traffic",
    seed: seedBase + i,
  };
}

/** POST /api/content/create at concurrency 1: one request after the other, each latency kept. */
export async function contentCreateLatencies(session: AppSession, n: number, seedBase: number) {
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const response = await call(session.server, session.apiKey, "/api/content/create", {
      method: "POST",
      body: createBody(session.brandId, i, seedBase),
    });
    if (response.status !== 201) throw new Error(`content/create: ${response.status} ${response.body}`);
    samples.push(response.ms);
  }
  return samples;
}

/**
 * Creates that are not measured, before the first round: the trivial route it is compared with has served
 * the throughput runs' thousands of requests by then (its code is optimised), content/create none.
 */
export const CREATE_WARM_UP = 100;

export async function warmContentCreate(session: AppSession) {
  await contentCreateLatencies(session, CREATE_WARM_UP, 900_000);
}

/**
 * Idle RSS is read this long after the servers' last request (the renders run meanwhile, with the servers idle):
 * long enough for V8's memory reducer to give back a burst's garbage (34–38 s after 3 000 creates here).
 */
export const IDLE_AFTER_MS = 90_000;

/** POSTs to the trivial route before content/create's first round (its GET is warm from the throughput runs). */
export const TRIVIAL_POST_WARM_UP = 1000;

/**
 * The trivial route's POST with a create's body and an API key's header: what Next costs to read a JSON body and
 * answer 201 with JSON, the framework's floor under any create.
 */
export async function postLatencies(url: string, n: number) {
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const response = await timedRequest(url, {
      method: "POST",
      headers: { authorization: "Bearer bs_bench", "content-type": "application/json" },
      body: JSON.stringify(createBody("brd_bench", i, 0)),
    });
    if (response.status !== 201) throw new Error(`${url}: ${response.status}`);
    samples.push(response.ms);
  }
  return samples;
}

/** The same loop against a constant-JSON GET, for the ratio. */
export async function getLatencies(url: string, n: number, headers?: Record<string, string>) {
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const response = await timedRequest(url, { headers });
    if (response.status !== 200) throw new Error(`${url}: ${response.status}`);
    samples.push(response.ms);
  }
  return samples;
}

const POLL_MS = 20;

/**
 * Enqueue → running as a client sees it: from sending POST /api/video/jobs until a poll (every 20 ms)
 * first shows the job past `queued`. Each job is canceled at once and the worker given time to go idle,
 * so every sample starts with an idle worker.
 */
export async function enqueueToRunning(session: AppSession, n: number) {
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    const created = await call(session.server, session.apiKey, "/api/video/jobs", {
      method: "POST",
      body: { brandId: session.brandId, script: SCRIPT, mode: "regular" },
    });
    if (created.status !== 202 && created.status !== 201)
      throw new Error(`Video job: ${created.status} ${created.body}`);
    const jobId = created.json().jobId as string;
    const deadline = Date.now() + 30_000;
    for (;;) {
      const poll = await call(session.server, session.apiKey, `/api/video/jobs/${jobId}`);
      const status = poll.json().status as string;
      if (status !== "queued") {
        samples.push(performance.now() - started);
        break;
      }
      if (Date.now() > deadline) throw new Error(`Job ${jobId} stayed queued for 30 s.`);
      await sleep(POLL_MS);
    }
    await call(session.server, session.apiKey, `/api/video/jobs/${jobId}`, { method: "DELETE" });
    // The worker notices a canceled render within a second; wait until it is idle again.
    await sleep(1500);
  }
  return { p50: percentile(samples, 0.5), p95: percentile(samples, 0.95), n: samples.length };
}
