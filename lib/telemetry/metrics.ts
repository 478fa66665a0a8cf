import client from "prom-client";
import { databaseSnapshotsOk, forgetDatabaseSnapshots } from "./database-gauges";

/**
 * The process's Prometheus registry: one per process (a globalThis singleton, so Next's route bundles and
 * the instrumentation hook share it), served by GET /api/metrics on a web process and by the METRICS_PORT
 * server on a worker (docs/observability.md). Counters and histograms count what this process did; the
 * gauges of the queue, the breakers, the webhook backlog and the publications are registered by their domains
 * (lib/telemetry/database-gauges.ts) and read from the database once per scrape, so every process reports the
 * same, database-wide values.
 */

const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const RENDER_RATIO_BUCKETS = [0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1, 1.5, 2, 3, 5, 10];

function createMetrics() {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry });
  const registers = [registry];

  const httpRequests = new client.Counter({
    name: "brand_studio_http_requests_total",
    help: "API requests answered, by operation (docs card id), method and HTTP status.",
    labelNames: ["operation", "method", "status"] as const,
    registers,
  });
  const httpDuration = new client.Histogram({
    name: "brand_studio_http_request_duration_seconds",
    help: "Time from the route handler's start to its response (a stream: to its first byte).",
    labelNames: ["operation", "method", "status"] as const,
    buckets: DURATION_BUCKETS,
    registers,
  });
  const jobRuns = new client.Counter({
    name: "brand_studio_job_runs_total",
    help: "Job attempts this process ran, by queue and outcome (succeeded, failed, retried, stopped, skipped, discarded).",
    labelNames: ["queue", "outcome"] as const,
    registers,
  });
  const enqueued = new client.Counter({
    name: "brand_studio_jobs_enqueued_total",
    help: "Jobs this process put on the queue, by queue.",
    labelNames: ["queue"] as const,
    registers,
  });
  const renderRatio = new client.Histogram({
    name: "brand_studio_render_seconds_per_video_second",
    help: "Wall-clock render time divided by the finished video's length, per successful render.",
    labelNames: ["provider"] as const,
    buckets: RENDER_RATIO_BUCKETS,
    registers,
  });
  const providerCalls = new client.Counter({
    name: "brand_studio_provider_calls_total",
    help: "Requests to hosted video providers (heygen, did: API calls and result downloads) and publishing platforms (telegram, linkedin, instagram), by outcome (ok, client_error, rate_limited, server_error, timeout, unreachable).",
    labelNames: ["provider", "outcome"] as const,
    registers,
  });
  const webhookDeliveries = new client.Counter({
    name: "brand_studio_webhook_deliveries_total",
    help: "Webhook delivery attempts, by outcome (delivered, retrying, failed, refused).",
    labelNames: ["outcome"] as const,
    registers,
  });
  const publications = new client.Counter({
    name: "brand_studio_publications_total",
    help: "Publication runs settled by this process, by outcome (published, failed, retry_scheduled) and platform.",
    labelNames: ["platform", "outcome"] as const,
    registers,
  });
  const metricPulls = new client.Counter({
    name: "brand_studio_metric_pulls_total",
    help: "Pulls of published posts' results (and channels' follower counts), by platform and outcome (ok, pending, deferred, rate_limited, reauth_required, failed).",
    labelNames: ["platform", "outcome"] as const,
    registers,
  });
  const lockouts = new client.Counter({
    name: "brand_studio_credential_lockouts_total",
    help: "Sign-in lockouts started after repeated wrong passwords, by scope (account or ip).",
    labelNames: ["scope"] as const,
    registers,
  });

  // Database-wide gauges: registered by their domains (lib/server/domain-gauges.ts).
  new client.Gauge({
    name: "brand_studio_metrics_snapshot_ok",
    help: "1 when this scrape could read the database gauges, 0 when the database did not answer.",
    registers,
    async collect() {
      this.set((await databaseSnapshotsOk()) ? 1 : 0);
    },
  });

  return {
    registry,
    httpRequests,
    httpDuration,
    jobRuns,
    enqueued,
    renderRatio,
    providerCalls,
    webhookDeliveries,
    publications,
    metricPulls,
    lockouts,
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

const globalForMetrics = globalThis as unknown as { brandStudioMetrics?: Metrics };

/** The process's registry and instruments, made on first use. */
export function metrics(): Metrics {
  globalForMetrics.brandStudioMetrics ??= createMetrics();
  return globalForMetrics.brandStudioMetrics;
}

/** Names every sample with the process's role (web or worker), so dashboards can tell them apart. */
export function setMetricsRole(role: "web" | "worker") {
  metrics().registry.setDefaultLabels({ role });
}

/** The Prometheus text exposition of this process's registry. */
export async function renderMetrics(): Promise<{ body: string; contentType: string }> {
  const { registry } = metrics();
  forgetDatabaseSnapshots();
  return { body: await registry.metrics(), contentType: registry.contentType };
}
