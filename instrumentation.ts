export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  // Tracing first, so Next's own request spans and ours go to the SDK from the first request. Without
  // OTEL_EXPORTER_OTLP_ENDPOINT this loads no SDK at all.
  const { startTracing } = await import("./lib/telemetry/start-tracing");
  await startTracing("web");
  const { setMetricsRole } = await import("./lib/telemetry/metrics");
  setMetricsRole("web");
  const { startServer } = await import("./lib/server/start-server");
  const { startWorkers } = await import("./worker/workers");
  await startServer({ startWorkers });
}
