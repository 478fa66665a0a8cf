import { randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newUser, signIn } from "./support/auth";
import { startFakeHeygen } from "./support/fake-heygen";
import { type FakeOpenAI, startFakeOpenAI } from "./support/fake-openai";
import { type FakeTelegram, startFakeTelegram } from "./support/fake-telegram";
import { api, baseUrl } from "./support/http";
import { makeImage } from "./support/images";
import { parsePrometheusText, type Sample, sampleValue } from "./support/prometheus";
import { promtool, startPrometheus } from "./support/prometheus-server";
import { createTestDatabase, freePort, startTestServer, type TestServer } from "./support/test-server";
import { SCRIPT, videoClient } from "./support/video-api";
import { waitFor } from "./support/video-media";
import { startWorkerProcess, type WorkerProcess } from "./support/video-worker-process";

const onPostgres = Boolean(process.env.DATABASE_URL);

type ReceivedSpan = {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  /** Start and end, in nanoseconds since the epoch. */
  start: bigint;
  end: bigint;
  attributes: Record<string, unknown>;
};

type OtlpValue = {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
  arrayValue?: { values?: OtlpValue[] };
};
type OtlpAttribute = { key: string; value: OtlpValue };

function otlpValue(value: OtlpValue): unknown {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(otlpValue);
  return null;
}

const attributesOf = (list: OtlpAttribute[] = []) =>
  Object.fromEntries(list.map((attribute) => [attribute.key, otlpValue(attribute.value)]));

/**
 * A real OTLP/HTTP receiver: POST /v1/traces with the JSON encoding of ExportTraceServiceRequest (what the
 * SDK sends with OTEL_EXPORTER_OTLP_PROTOCOL=http/json), decoded span by span.
 */
async function startOtlpReceiver() {
  const spans: ReceivedSpan[] = [];
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", () => {
      requests.push(`${req.method} ${req.url} ${req.headers["content-type"]}`);
      if (req.method !== "POST" || req.url !== "/v1/traces") {
        res.writeHead(404).end();
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString()) as {
        resourceSpans: {
          resource: { attributes: OtlpAttribute[] };
          scopeSpans: {
            spans: {
              traceId: string;
              spanId: string;
              parentSpanId?: string;
              name: string;
              kind: number;
              startTimeUnixNano: string;
              endTimeUnixNano: string;
              attributes?: OtlpAttribute[];
            }[];
          }[];
        }[];
      };
      for (const resource of body.resourceSpans) {
        const service = String(attributesOf(resource.resource.attributes)["service.name"]);
        for (const scope of resource.scopeSpans) {
          for (const span of scope.spans) {
            spans.push({
              service,
              traceId: span.traceId,
              spanId: span.spanId,
              parentSpanId: span.parentSpanId ?? "",
              name: span.name,
              kind: span.kind,
              start: BigInt(span.startTimeUnixNano),
              end: BigInt(span.endTimeUnixNano),
              attributes: attributesOf(span.attributes),
            });
          }
        }
      }
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

type OtlpReceiver = Awaited<ReturnType<typeof startOtlpReceiver>>;

/**
 * The span of the API operation that gave `response` (found by its X-Request-Id) and every span of its
 * trace, once spans named `names` are all there.
 */
function traceOf(
  otlp: OtlpReceiver,
  operation: string,
  response: { headers: Headers },
  names: string[] = [],
) {
  const requestId = response.headers.get("x-request-id");
  return waitFor(
    () => {
      const root = otlp.spans.find(
        (span) => span.name === operation && span.attributes["brand_studio.request_id"] === requestId,
      );
      const spans = root ? otlp.spans.filter((span) => span.traceId === root.traceId) : [];
      return root && names.every((name) => spans.some((span) => span.name === name)) && { root, spans };
    },
    { what: `${[operation, ...names].join(", ")} in the trace of ${operation}`, timeoutMs: 20_000 },
  );
}

/** A user's webhook endpoint that answers 200 and records what came. */
async function startHookReceiver() {
  const received: { headers: http.IncomingHttpHeaders; body: string }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString() });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe("GET /api/metrics without METRICS_TOKEN", () => {
  it("is off: 404 in the envelope, whatever the Authorization", async () => {
    for (const token of [undefined, "anything"]) {
      const response = await api("/api/metrics", { server: baseUrl(), token });
      expect(response.status).toBe(404);
      expect(response.body.error).toMatchObject({ code: "not_found" });
      expect(response.headers.get("x-request-id")).toMatch(/^req_/);
    }
  });
});

// A separate worker process needs PostgreSQL (PGlite is one process); this runs in the PostgreSQL pass.
/** A W3C `traceparent` for a new trace id, sampled (flags 01) or not (00). */
function traceparent(sampled: boolean) {
  const traceId = randomBytes(16).toString("hex");
  return { traceId, header: `00-${traceId}-${randomBytes(8).toString("hex")}-${sampled ? "01" : "00"}` };
}

describe("the trace sampler", () => {
  let otlp: OtlpReceiver;
  const servers: TestServer[] = [];
  /** A server exporting as `service`, so each test counts only its own server's traces. */
  const start = async (service: string, env: Record<string, string> = {}) => {
    const server = await startTestServer({
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
        OTEL_BSP_SCHEDULE_DELAY: "100",
        OTEL_SERVICE_NAME: service,
        ...env,
      },
    });
    servers.push(server);
    return server;
  };
  /** GET /api/health `n` times, each with a new traceparent (sampled or not) or none; the trace ids sent. */
  const health = async (server: TestServer, n: number, sampled?: boolean) => {
    const traceIds: string[] = [];
    for (let i = 0; i < n; i++) {
      const parent = sampled === undefined ? undefined : traceparent(sampled);
      if (parent) traceIds.push(parent.traceId);
      const response = await fetch(`${server.url}/api/health`, {
        headers: parent ? { traceparent: parent.header } : {},
      });
      expect(response.status).toBe(200);
    }
    return traceIds;
  };
  /** The traces of `service` that served GET /api/health (a server also traces its own background work). */
  const traces = (service: string) =>
    new Set(
      otlp.spans
        .filter(
          (span) =>
            span.service === service &&
            (span.name.includes("/api/health") || JSON.stringify(span.attributes).includes("/api/health")),
        )
        .map((span) => span.traceId),
    );
  /** Once `ids` have all arrived, and one more export interval for anything behind them. */
  const settled = async (service: string, ids: string[]) => {
    await waitFor(() => ids.every((id) => traces(service).has(id)), { what: `${ids.length} traces` });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    return traces(service);
  };

  beforeAll(async () => {
    otlp = await startOtlpReceiver();
  });
  afterAll(async () => {
    for (const server of servers) await server.stop();
    await otlp?.close();
  });

  it("by default follows the caller's decision and keeps about 10 % of the traces that start here", async () => {
    const server = await start("sampler-default");
    // The start-up's own health checks are traced too: leave them out.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const startUp = traces("sampler-default");
    const kept = await health(server, 10, true);
    const dropped = await health(server, 10, false);
    await health(server, 200);
    const exported = await settled("sampler-default", kept);
    expect(dropped.filter((id) => exported.has(id))).toEqual([]);
    // 200 new traces at a ratio of 0.1 keep 20 on average: none, or 60 and more, is a one-in-a-billion draw.
    const started = [...exported].filter((id) => !kept.includes(id) && !startUp.has(id));
    expect(started.length).toBeGreaterThan(0);
    expect(started.length).toBeLessThan(60);
  }, 120_000);

  it("honours OTEL_TRACES_SAMPLER and OTEL_TRACES_SAMPLER_ARG: traceidratio at 1 keeps every trace, whatever the caller decided", async () => {
    const server = await start("sampler-ratio-1", {
      OTEL_TRACES_SAMPLER: "traceidratio",
      OTEL_TRACES_SAMPLER_ARG: "1",
    });
    // Every caller said "not sampled"; a ratio sampler that is not parent-based keeps each trace all the same.
    const unsampledCallers = await health(server, 40, false);
    const exported = await settled("sampler-ratio-1", unsampledCallers);
    expect(unsampledCallers.filter((id) => exported.has(id))).toHaveLength(40);
  }, 120_000);
});

describe.skipIf(!onPostgres)("traces and metrics across a web process and a worker process", () => {
  let otlp: Awaited<ReturnType<typeof startOtlpReceiver>>;
  let hooks: Awaited<ReturnType<typeof startHookReceiver>>;
  let heygen: Awaited<ReturnType<typeof startFakeHeygen>>;
  let telegram: FakeTelegram;
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let web: TestServer;
  let worker: WorkerProcess;
  let metricsPort: number;
  let token: string;
  let email: string;
  let password: string;
  let apiKey: string;
  let client: ReturnType<typeof videoClient>;
  const metricsToken = `metrics-${randomBytes(12).toString("hex")}`;

  beforeAll(async () => {
    otlp = await startOtlpReceiver();
    hooks = await startHookReceiver();
    heygen = await startFakeHeygen();
    telegram = await startFakeTelegram();
    database = await createTestDatabase(process.env.DATABASE_URL as string);
    metricsPort = await freePort();
    const env = {
      OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_BSP_SCHEDULE_DELAY: "200",
      // Every trace: these tests follow particular requests (the default keeps 10 % of new traces).
      OTEL_TRACES_SAMPLER: "parentbased_always_on",
      METRICS_TOKEN: metricsToken,
      WORKER: "off",
      VIDEO_PROVIDER: "heygen",
      HEYGEN_API_KEY: heygen.apiKey,
      HEYGEN_BASE_URL: heygen.url,
      HEYGEN_UPLOAD_BASE_URL: heygen.url,
      PROVIDER_POLL_INTERVAL_MS: "200",
      PROVIDER_BREAKER_THRESHOLD: "2",
      PROVIDER_BREAKER_COOLDOWN_SECONDS: "600",
      WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
      AUTH_LOCKOUT_THRESHOLD: "2",
      TELEGRAM_API_BASE_URL: telegram.url,
    };
    const shared = {
      databaseUrl: database.url,
      authSecret: `test-secret-${randomBytes(16).toString("hex")}`,
    };
    web = await startTestServer({ env, shared });
    heygen.setWebhookUrl?.(`${web.url}/api/webhooks/providers/heygen`);
    // The worker shares the web's media folder (one machine); its own role, port and trace service name.
    worker = startWorkerProcess({
      ...env,
      DATABASE_URL: database.url,
      DATA_DIR: web.dataDir,
      AUTH_SECRET: web.authSecret,
      APP_URL: web.url,
      METRICS_PORT: String(metricsPort),
    });
    await waitFor(() => worker.events("worker_ready").length > 0, { what: "the worker to start" });
    ({ token, email, password } = await newUser(web.url));
    const key = await api("/api/keys", {
      server: web.url,
      token,
      method: "POST",
      json: { name: "otel test" },
    });
    expect(key.status).toBe(201);
    apiKey = key.body.key;
    client = videoClient(web.url, apiKey);
  }, 180_000);

  afterAll(async () => {
    await worker?.stop();
    await web?.stop();
    await database?.drop();
    await heygen?.close();
    await telegram?.close();
    await hooks?.close();
    await otlp?.close();
  });

  async function scrape(url: string, bearer: string | null = metricsToken) {
    const response = await fetch(url, { headers: bearer ? { authorization: `Bearer ${bearer}` } : {} });
    const text = await response.text();
    return { response, text };
  }
  const webMetrics = async () => {
    const { response, text } = await scrape(`${web.url}/api/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    return parsePrometheusText(text).samples;
  };
  const workerMetrics = async () => {
    const { response, text } = await scrape(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(response.status).toBe(200);
    return parsePrometheusText(text).samples;
  };

  /** Uploads a photo as the brand's avatar and waits for HeyGen to accept it; the upload's answer. */
  async function uploadAvatar(brandId: string) {
    const form = new FormData();
    form.append(
      "file",
      new Blob([new Uint8Array(await makeImage({ format: "jpeg" }))], { type: "image/jpeg" }),
      "me.jpg",
    );
    const uploaded = await client.call(`/api/brands/${brandId}/avatar`, { method: "POST", body: form });
    expect(uploaded.status).toBe(202);
    await waitFor(async () => (await client.call(`/api/brands/${brandId}`)).body.avatarStatus === "ready", {
      what: "the avatar to reach HeyGen",
      timeoutMs: 60_000,
    });
    return uploaded;
  }

  it("follows one video job in one trace: the POST on the web, the run, the render phases and the webhook delivery on the worker", async () => {
    const hook = await client.call("/api/webhooks", {
      method: "POST",
      json: { url: hooks.url, events: ["video.succeeded"] },
    });
    expect(hook.status).toBe(201);
    const brandId = await client.newBrand();
    const { created, job } = await client.runJob({ brandId, mode: "regular", script: SCRIPT }, 150_000);
    const requestId = created.headers.get("x-request-id");
    expect(job.status).toBe("succeeded");
    await waitFor(() => hooks.received.length > 0, { what: "the webhook delivery" });

    const { root: post } = await traceOf(otlp, "generate-video", created);
    expect(post.service).toBe("brand-studio-web");
    expect(post.attributes["http.response.status_code"]).toBe(202);
    const inTrace = () => otlp.spans.filter((span) => span.traceId === post.traceId);
    const delivered = await waitFor(() => inTrace().find((span) => span.name === "webhook deliver"), {
      what: "the webhook delivery span in the POST's trace",
      timeoutMs: 20_000,
    });
    const byId = new Map(inTrace().map((span) => [span.spanId, span]));
    const parentOf = (span: ReceivedSpan) => byId.get(span.parentSpanId);
    const named = (name: string) => {
      const found = inTrace().filter((span) => span.name === name);
      expect(found, name).toHaveLength(1);
      return found[0];
    };

    const enqueue = named("video-render enqueue");
    expect(parentOf(enqueue)?.spanId).toBe(post.spanId);
    const run = named("video-render run");
    expect(run.service).toBe("brand-studio-worker");
    expect(parentOf(run)?.spanId).toBe(enqueue.spanId);
    expect(run.attributes).toMatchObject({
      "brand_studio.video_job_id": job.jobId,
      "brand_studio.outcome": "succeeded",
    });
    for (const phase of ["render speech", "render scenes", "render encode", "render upload"]) {
      expect(parentOf(named(phase))?.spanId, phase).toBe(run.spanId);
    }
    const hookEnqueue = named("webhook-delivery enqueue");
    expect(parentOf(hookEnqueue)?.spanId).toBe(run.spanId);
    expect(parentOf(delivered)?.spanId).toBe(hookEnqueue.spanId);
    expect(delivered.attributes).toMatchObject({
      "brand_studio.outcome": "delivered",
      "http.response.status_code": 200,
    });
    // The POST's span sits under Next's own server span for the request, in the same trace.
    expect(parentOf(post)?.service).toBe("brand-studio-web");

    // Database statements: one CLIENT span each, children of the operation (web) and of the run (worker)
    // in the same trace, naming the statement and never its bound values.
    const statements = inTrace().filter((span) => span.attributes["db.system"] === "postgresql");
    const underPost = statements.filter((span) => span.parentSpanId === post.spanId);
    const underRun = statements.filter((span) => span.parentSpanId === run.spanId);
    expect(underPost.map((span) => span.name)).toContain("INSERT video_jobs");
    expect(underPost.every((span) => span.service === "brand-studio-web")).toBe(true);
    expect(underRun.map((span) => span.name)).toContain("UPDATE video_jobs");
    expect(underRun.every((span) => span.service === "brand-studio-worker")).toBe(true);
    for (const span of statements) {
      expect(span.kind, span.name).toBe(3); // CLIENT in OTLP's numbering
      expect(byId.has(span.parentSpanId), `${span.name}'s parent is in the trace`).toBe(true);
      expect(span.attributes).toMatchObject({
        "db.system.name": "postgresql",
        "db.query.summary": span.name,
        "db.operation.name": span.name.split(" ")[0],
      });
      const text = JSON.stringify(span.attributes);
      for (const value of [job.jobId, brandId, SCRIPT, SCRIPT.slice(0, 20), email, hooks.url, database.url]) {
        expect(text.includes(value), `${span.name} holds a bound value: ${text}`).toBe(false);
      }
    }

    // The web's log lines carry the request's trace and span ids beside its requestId.
    const webLine = web
      .logs()
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .find((line) => line.event === "video_job_created" && line.jobId === job.jobId);
    expect(webLine).toMatchObject({ requestId, traceId: post.traceId, spanId: post.spanId });

    // The worker's log lines carry the run's trace and span ids beside the job (its success line may still be
    // on the way: the worker writes it just after the row).
    const logged = await waitFor(
      () => worker.events("video_job_succeeded").find((line) => line.jobId === job.jobId),
      { what: "the worker's success line" },
    );
    expect(logged).toMatchObject({ traceId: post.traceId, spanId: run.spanId });
  }, 200_000);

  it("follows a publication: the POST on the web, the publish run on the worker and its Telegram call, counted; the bot token in no span", async () => {
    const brandId = await client.newBrand();
    const botToken = telegram.addBot("obs_publisher_bot");
    const chatId = telegram.addChannel({
      title: "Obs News",
      username: "obs_news",
      admins: [{ token: botToken }],
    });
    const call = (p: string, init: Parameters<typeof api>[1] = {}) =>
      api(p, { server: web.url, token, ...init });
    const connected = await call("/api/channels", {
      method: "POST",
      json: { brandId, channel: "telegram", botToken, chatId: String(chatId) },
    });
    expect(connected.status, connected.text).toBe(201);
    const { postId } = await client.newPost(brandId, "telegram");
    const patched = await call(`/api/posts/${postId}`, {
      method: "PATCH",
      json: { caption: "Fresh beans.", hashtags: [], mediaPlan: { format: "text_only", items: [] } },
    });
    expect(patched.status, patched.text).toBe(200);
    const okBefore = sampleValue(await workerMetrics(), "brand_studio_provider_calls_total", {
      provider: "telegram",
      outcome: "ok",
    });
    const published = await call(`/api/posts/${postId}/publications`, {
      method: "POST",
      json: { channelId: connected.body.channelId },
    });
    expect(published.status, published.text).toBe(202);
    const requestId = published.headers.get("x-request-id");
    await waitFor(
      async () =>
        (await call(`/api/publications/${published.body.publicationId}`)).body.status === "published",
      { what: "the publication to go out", timeoutMs: 30_000 },
    );

    const post = await waitFor(
      () => otlp.spans.find((span) => span.attributes["brand_studio.request_id"] === requestId),
      { what: "the publish POST's span", timeoutMs: 20_000 },
    );
    const inTrace = () => otlp.spans.filter((span) => span.traceId === post.traceId);
    const send = await waitFor(() => inTrace().find((span) => span.name === "telegram sendMessage"), {
      what: "the Telegram call in the POST's trace",
      timeoutMs: 20_000,
    });
    // The worker exports in batches: the run span ends after its Telegram call and may come in a later batch.
    const run = await waitFor(() => inTrace().find((span) => span.spanId === send.parentSpanId), {
      what: "the Telegram call's parent span",
      timeoutMs: 20_000,
    });
    expect(run).toMatchObject({ name: "publish run", service: "brand-studio-worker" });
    const enqueue = inTrace().find((span) => span.spanId === run.parentSpanId);
    expect(enqueue).toMatchObject({ name: "publish enqueue", service: "brand-studio-web" });
    expect(enqueue?.parentSpanId).toBe(post.spanId);
    expect(send.attributes).toMatchObject({
      "brand_studio.outcome": "ok",
      "brand_studio.provider": "telegram",
    });
    for (const span of otlp.spans) {
      expect(JSON.stringify(span.attributes).includes(botToken), `${span.name} holds the bot token`).toBe(
        false,
      );
    }

    const worked = await workerMetrics();
    expect(
      sampleValue(worked, "brand_studio_provider_calls_total", { provider: "telegram", outcome: "ok" }),
    ).toBe(okBefore + 1);
    expect(
      sampleValue(worked, "brand_studio_publications_total", { platform: "telegram", outcome: "published" }),
    ).toBeGreaterThanOrEqual(1);
  }, 90_000);

  it("follows an avatar from its upload to HeyGen on the worker, and an avatar render's download, poster and upload", async () => {
    const brandId = await client.newBrand();
    const training = await traceOf(otlp, "upload-avatar", await uploadAvatar(brandId), [
      "avatar-training enqueue",
      "avatar-training run",
      "heygen POST",
    ]);
    const named = (spans: ReceivedSpan[], name: string) => spans.find((span) => span.name === name);
    const enqueue = named(training.spans, "avatar-training enqueue");
    const run = named(training.spans, "avatar-training run");
    expect(enqueue?.parentSpanId).toBe(training.root.spanId);
    expect(run).toMatchObject({
      service: "brand-studio-worker",
      parentSpanId: enqueue?.spanId,
      attributes: { "brand_studio.brand_id": brandId, "brand_studio.outcome": "succeeded" },
    });
    // HeyGen's talking-photo upload is the training run's call.
    expect(named(training.spans, "heygen POST")).toMatchObject({
      parentSpanId: run?.spanId,
      attributes: { "brand_studio.provider": "heygen", "brand_studio.outcome": "ok" },
    });

    const { created, job } = await client.runJob({ brandId, mode: "avatar", script: SCRIPT });
    expect(job.status).toBe("succeeded");
    const render = await traceOf(otlp, "generate-video", created, [
      "video-render run",
      "render download",
      "render poster",
      "render upload",
    ]);
    const renderRun = named(render.spans, "video-render run");
    // Download, poster and upload are the run's, in order; the download names HeyGen's file without its query.
    const phases = ["render download", "render poster", "render upload"].map(
      (name) => named(render.spans, name) as ReceivedSpan,
    );
    expect(phases.map((span) => span.parentSpanId)).toEqual(Array(3).fill(renderRun?.spanId));
    expect(phases.map((span) => span.service)).toEqual(Array(3).fill("brand-studio-worker"));
    expect(phases[0].attributes).toMatchObject({
      "brand_studio.provider": "heygen",
      "brand_studio.outcome": "ok",
      "http.response.status_code": 200,
      "url.full": expect.stringMatching(/\/files\/[^/?]+\.mp4$/),
    });
    expect(String(phases[0].attributes["url.full"]).startsWith(heygen.url)).toBe(true);
    // One after the other (the SDK's nanosecond clock rounds, so an end and the next start may swap).
    expect(phases[0].start < phases[1].start && phases[1].start < phases[2].start).toBe(true);
  }, 200_000);

  it("exports no secret in any span attribute: AUTH_SECRET, access token, API keys, media signatures", async () => {
    // A request whose target carries a media signature, as a browser's <video> sends it.
    const signed = await client.call("/api/health?sig=deadbeef&token=abc");
    expect(signed.status).toBe(200);
    await waitFor(() => otlp.spans.some((span) => JSON.stringify(span.attributes).includes("/api/health")), {
      what: "the health request's spans",
      timeoutMs: 20_000,
    });
    expect(otlp.spans.length).toBeGreaterThan(10);
    for (const span of otlp.spans) {
      const text = JSON.stringify(span.attributes);
      const secrets = [
        web.authSecret,
        token,
        apiKey,
        heygen.apiKey,
        metricsToken,
        email,
        password,
        "sig=",
        "Bearer ",
      ];
      for (const secret of secrets) {
        expect(text.includes(secret), `${span.name} holds ${secret.slice(0, 8)}…: ${text}`).toBe(false);
      }
    }
  });

  it("answers 401 in the envelope without the metrics token or with a wrong one, on the web and on the worker's port", async () => {
    for (const bearer of [null, "wrong-token"]) {
      const { response, text } = await scrape(`${web.url}/api/metrics`, bearer);
      expect(response.status).toBe(401);
      expect(JSON.parse(text).error).toMatchObject({ code: "unauthorized" });
      const onWorker = await scrape(`http://127.0.0.1:${metricsPort}/metrics`, bearer);
      expect(onWorker.response.status).toBe(401);
      expect(JSON.parse(onWorker.text).error).toMatchObject({ code: "unauthorized" });
    }
  });

  it("moves the numbers: a request, a lockout, the render, a failed job, an open breaker", async () => {
    const health = { operation: "backend-connect-check", method: "GET", status: "200" };
    const before = await webMetrics();
    await client.call("/api/health");
    const after = await webMetrics();
    expect(sampleValue(after, "brand_studio_http_requests_total", health)).toBe(
      sampleValue(before, "brand_studio_http_requests_total", health) + 1,
    );
    expect(sampleValue(after, "brand_studio_http_request_duration_seconds_count", health)).toBe(
      sampleValue(before, "brand_studio_http_request_duration_seconds_count", health) + 1,
    );
    expect(sampleValue(after, "process_resident_memory_bytes", { role: "web" })).toBeGreaterThan(0);
    expect(after.some((sample) => sample.name === "nodejs_eventloop_lag_seconds")).toBe(true);

    // A credential lockout: two wrong passwords for one account (AUTH_LOCKOUT_THRESHOLD=2).
    const lockouts = sampleValue(after, "brand_studio_credential_lockouts_total", { scope: "account" });
    const victim = await newUser(web.url);
    for (let i = 0; i < 2; i++) {
      await expect(signIn(web.url, victim.email, "not-the-password")).rejects.toThrow(/Sign-in failed/);
    }
    const signedIn = await webMetrics();
    expect(sampleValue(signedIn, "brand_studio_credential_lockouts_total", { scope: "account" })).toBe(
      lockouts + 1,
    );
    // Each sign-in above fetched a CSRF token, posted the form and read the session: operations too.
    for (const operation of ["auth-csrf", "auth-callback", "auth-session"]) {
      const counted = (samples: Sample[]) =>
        sampleValue(samples, "brand_studio_http_requests_total", { operation });
      expect(counted(signedIn) - counted(after), operation).toBeGreaterThanOrEqual(2);
    }

    // The render of the first test was the worker's, so its counters are on the worker's port.
    const worked = await workerMetrics();
    expect(
      sampleValue(worked, "brand_studio_job_runs_total", {
        queue: "video-render",
        outcome: "succeeded",
        role: "worker",
      }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sampleValue(worked, "brand_studio_render_seconds_per_video_second_count", { provider: "local" }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sampleValue(worked, "brand_studio_webhook_deliveries_total", { outcome: "delivered" }),
    ).toBeGreaterThanOrEqual(1);
    expect(sampleValue(after, "brand_studio_video_jobs", { state: "succeeded" })).toBeGreaterThanOrEqual(1);

    // A failed job: the provider reports the avatar video failed.
    const brandId = await client.newBrand();
    await uploadAvatar(brandId);
    const trained = { queue: "avatar-training", outcome: "succeeded", role: "worker" };
    await waitFor(
      async () => sampleValue(await workerMetrics(), "brand_studio_job_runs_total", trained) >= 1,
      {
        what: "the worker to count the training run",
        timeoutMs: 10_000,
        intervalMs: 200,
      },
    );
    const failedBefore = sampleValue(await webMetrics(), "brand_studio_video_jobs", { state: "failed" });
    const runsFailedBefore = sampleValue(await workerMetrics(), "brand_studio_job_runs_total", {
      outcome: "failed",
    });
    heygen.behavior.failNext = "No face was found in the photo";
    const doomed = await client.createJob({ brandId, mode: "avatar", script: SCRIPT });
    expect(doomed.status).toBe(202);
    const { job: failed } = await client.pollJob(
      doomed.body.jobId,
      (j) => j.status === "failed" || j.status === "succeeded",
      90_000,
    );
    expect(failed.status).toBe("failed");
    expect(sampleValue(await webMetrics(), "brand_studio_video_jobs", { state: "failed" })).toBe(
      failedBefore + 1,
    );
    // The run counts itself when it ends, just after it has written the job's status: wait for that.
    await waitFor(
      async () =>
        sampleValue(await workerMetrics(), "brand_studio_job_runs_total", { outcome: "failed" }) >=
        runsFailedBefore + 1,
      { what: "the worker to count the failed run", timeoutMs: 10_000, intervalMs: 200 },
    );
    expect(sampleValue(await workerMetrics(), "brand_studio_job_runs_total", { outcome: "failed" })).toBe(
      runsFailedBefore + 1,
    );

    // An outage: the worker's submits answer 503 until the breaker opens; both processes show it open.
    const open = { provider: "heygen", state: "open" };
    expect(sampleValue(await webMetrics(), "brand_studio_provider_breaker_state", open)).toBe(0);
    heygen.behavior.outage = true;
    expect((await client.createJob({ brandId, mode: "avatar", script: SCRIPT })).status).toBe(202);
    await waitFor(
      async () => sampleValue(await webMetrics(), "brand_studio_provider_breaker_state", open) === 1,
      {
        what: "the breaker to show open",
        timeoutMs: 60_000,
        intervalMs: 500,
      },
    );
    const onWorker = await workerMetrics();
    expect(sampleValue(onWorker, "brand_studio_provider_breaker_state", open)).toBe(1);
    expect(
      sampleValue(onWorker, "brand_studio_provider_breaker_state", { provider: "heygen", state: "closed" }),
    ).toBe(0);
    expect(
      sampleValue(onWorker, "brand_studio_provider_calls_total", {
        provider: "heygen",
        outcome: "server_error",
      }),
    ).toBeGreaterThanOrEqual(2);
    expect(
      sampleValue(onWorker, "brand_studio_provider_calls_total", { provider: "heygen", outcome: "ok" }),
    ).toBeGreaterThanOrEqual(1);
    heygen.behavior.outage = false;
  }, 240_000);

  it("is scraped by a real Prometheus on the shipped configuration, which evaluates every alert and dashboard query on the numbers", async () => {
    const webTarget = new URL(web.url).host;
    const prometheus = await startPrometheus({
      targets: { "brand-studio-web": webTarget, "brand-studio-worker": `127.0.0.1:${metricsPort}` },
      token: metricsToken,
      extraJobs: [
        {
          job_name: "wrong-token",
          metrics_path: "/api/metrics",
          authorization: { credentials: "not-the-token" },
          static_configs: [{ targets: [webTarget] }],
        },
      ],
    });
    try {
      // Both shipped jobs scrape with the token; the same endpoint refuses a wrong one.
      const targets = await waitFor(
        async () => {
          const all = await prometheus.targets();
          return all.every((target) => target.health !== "unknown") && all.length === 3 ? all : null;
        },
        { what: "Prometheus to scrape every target once", timeoutMs: 15_000, intervalMs: 250 },
      );
      const health = Object.fromEntries(targets.map((target) => [target.scrapePool, target]));
      expect(health["brand-studio-web"]).toMatchObject({ health: "up", lastError: "" });
      expect(health["brand-studio-worker"]).toMatchObject({ health: "up", lastError: "" });
      expect(health["wrong-token"].health).toBe("down");
      expect(health["wrong-token"].lastError).toMatch(/401/);

      // promtool lints both expositions (names, units, types, help) as Prometheus's own tooling does. Its one
      // complaint is upstream: prom-client's default gauges nodejs_active_{handles,requests,resources}_total.
      const upstream =
        /^nodejs_active_(handles|requests|resources)_total non-counter metrics should not have "_total" suffix$/;
      for (const url of [`${web.url}/api/metrics`, `http://127.0.0.1:${metricsPort}/metrics`]) {
        const lint = promtool(["check", "metrics"], (await scrape(url)).text);
        const problems = lint.output.split("\n").filter((line) => line.trim() && !upstream.test(line.trim()));
        expect(problems, url).toEqual([]);
      }

      // Every alert rule evaluates without error on the real series. The breaker this describe opened puts
      // its alert in `pending` (it fires after a minute open).
      const rules = await waitFor(
        async () => {
          const all = await prometheus.rules();
          return all.every((rule) => rule.health !== "unknown") ? all : null;
        },
        { what: "Prometheus to evaluate the alert rules", timeoutMs: 15_000, intervalMs: 250 },
      );
      expect(rules.length).toBeGreaterThanOrEqual(6);
      for (const rule of rules) expect(rule, rule.name).toMatchObject({ health: "ok" });
      const pending = await waitFor(
        async () => {
          const series = await prometheus.query('ALERTS{alertname="BrandStudioProviderBreakerOpen"}');
          return series.length > 0 ? series : null;
        },
        { what: "the breaker alert to go pending", timeoutMs: 15_000, intervalMs: 250 },
      );
      expect(pending.map((series) => series.labels)).toEqual([
        expect.objectContaining({ provider: "heygen", alertstate: "pending", severity: "page" }),
      ]);

      // Every dashboard panel's query runs and has data: this describe made requests, renders, a failed job,
      // an open breaker, webhook deliveries, a lockout and a publication. rate() needs two scrapes.
      const dashboard = JSON.parse(
        fs.readFileSync(path.join(__dirname, "../deploy/grafana/brand-studio.json"), "utf8"),
      ) as { panels: { title: string; targets: { expr: string }[] }[] };
      const queries = dashboard.panels.flatMap((panel) =>
        panel.targets.map((target) => ({ title: panel.title, expr: target.expr })),
      );
      const withoutData = async () => {
        const results = await Promise.all(
          queries.map(async (q) => ({ ...q, series: await prometheus.query(q.expr) })),
        );
        return results.filter((result) => result.series.length === 0).map((q) => `${q.title}: ${q.expr}`);
      };
      let empty = await withoutData();
      for (const deadline = Date.now() + 20_000; empty.length > 0 && Date.now() < deadline; ) {
        await new Promise((resolve) => setTimeout(resolve, 500));
        empty = await withoutData();
      }
      expect(empty).toEqual([]);

      // The numbers move through Prometheus too: three health checks on the web are three more in its series.
      const counted = async () =>
        (
          await prometheus.query(
            'sum(brand_studio_http_requests_total{job="brand-studio-web",operation="backend-connect-check"})',
          )
        )[0]?.value ?? 0;
      const before = await waitFor(counted, {
        what: "a first health check in Prometheus",
        timeoutMs: 10_000,
        intervalMs: 250,
      });
      for (let i = 0; i < 3; i++) expect((await client.call("/api/health")).status).toBe(200);
      await waitFor(async () => (await counted()) === before + 3, {
        what: "Prometheus to count the three health checks",
        timeoutMs: 10_000,
        intervalMs: 250,
      });
    } finally {
      await prometheus.stop();
    }
  }, 90_000);
});

describe("AI calls in traces: the model, its moderation, an image and speech (fake OpenAI)", () => {
  let otlp: Awaited<ReturnType<typeof startOtlpReceiver>>;
  let openai: FakeOpenAI;
  let server: TestServer;
  let client: ReturnType<typeof videoClient>;
  const TOPIC = "Our autumn blend with notes of fig and cocoa";

  beforeAll(async () => {
    otlp = await startOtlpReceiver();
    openai = await startFakeOpenAI();
    server = await startTestServer({
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
        OTEL_BSP_SCHEDULE_DELAY: "200",
        // Every trace: these tests follow particular requests.
        OTEL_TRACES_SAMPLER: "parentbased_always_on",
        OPENAI_BASE_URL: openai.url,
        OPENAI_API_KEY: "sk-fake-trace-key",
        OPENAI_MODEL: "gpt-fake",
        IMAGE_MODEL: "gpt-image-1",
        TTS_MODEL: "gpt-4o-mini-tts",
      },
    });
    client = videoClient(server.url, (await newUser(server.url)).token);
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    await openai?.close();
    await otlp?.close();
  });

  /** No span carries what the model was asked or answered: no ai.prompt* / ai.response.text, nor the words. */
  function expectNoContent(spans: ReceivedSpan[], words: string[]) {
    for (const span of spans) {
      expect(Object.keys(span.attributes).filter((key) => /^ai\.(prompt|response\.text)/.test(key))).toEqual(
        [],
      );
      const text = JSON.stringify(span.attributes);
      for (const word of words) expect(text.includes(word), `${span.name}: ${text}`).toBe(false);
    }
  }

  it("traces the draft's model call and its moderation, then the picture made for it, without the prompts", async () => {
    const brandId = await client.newBrand();
    const created = await client.call("/api/content/create", {
      method: "POST",
      json: { brandId, channel: "instagram", goal: "traffic", topic: TOPIC },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const draft = await traceOf(otlp, "generate-post", created, ["ai.generateText", "ai.moderate"]);
    const model = draft.spans.find((span) => span.name === "ai.generateText");
    expect(model?.attributes).toMatchObject({ "ai.model.id": "gpt-fake" });
    const moderations = draft.spans.filter((span) => span.name === "ai.moderate");
    expect(moderations.length).toBeGreaterThanOrEqual(2); // the brief, then the draft
    for (const span of moderations) {
      expect(span).toMatchObject({
        kind: 3, // CLIENT
        parentSpanId: draft.root.spanId,
        attributes: { "gen_ai.operation.name": "moderate", "gen_ai.request.model": "omni-moderation-latest" },
      });
    }
    expectNoContent(draft.spans, [TOPIC, "sk-fake-trace-key", created.body.caption]);

    const pictured = await client.call(`/api/posts/${created.body.postId}/media/0/image/generate`, {
      method: "POST",
    });
    expect(pictured.status, JSON.stringify(pictured.body)).toBe(200);
    const image = await traceOf(otlp, "generate-media-image", pictured, ["ai.generateImage"]);
    expect(image.spans.find((span) => span.name === "ai.generateImage")).toMatchObject({
      parentSpanId: image.root.spanId,
      attributes: { "gen_ai.operation.name": "generateImage", "gen_ai.request.model": "gpt-image-1" },
    });
    const [request] = openai.imageRequests();
    expectNoContent(image.spans, [String(request.body.prompt).slice(0, 40), "sk-fake-trace-key"]);
  }, 60_000);

  it("traces each phrase OpenAI speaks for a video under its render's speech phase", async () => {
    const brandId = await client.newBrand();
    const { created, job } = await client.runJob({ brandId, mode: "regular", script: SCRIPT });
    expect(job.status).toBe("succeeded");
    const { spans } = await traceOf(otlp, "generate-video", created, ["render speech", "ai.generateSpeech"]);
    const speech = spans.find((span) => span.name === "render speech");
    const spoken = spans.filter((span) => span.name === "ai.generateSpeech");
    expect(spoken.length).toBe(
      openai.requests.filter((request) => request.path.endsWith("/audio/speech")).length,
    );
    for (const span of spoken) {
      expect(span).toMatchObject({
        parentSpanId: speech?.spanId,
        attributes: { "gen_ai.operation.name": "generateSpeech", "gen_ai.request.model": "gpt-4o-mini-tts" },
      });
    }
    expectNoContent(spans, [SCRIPT.slice(0, 30), "sk-fake-trace-key"]);
  }, 120_000);
});
