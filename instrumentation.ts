export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  // A bad configuration stops the process here with one message naming each variable, before the tracing
  // SDK (which reads the configuration too) could be the first to meet it.
  const { assertConfig } = await import("./lib/config");
  assertConfig();
  // Tracing next, so Next's own request spans and ours go to the SDK from the first request. Without
  // OTEL_EXPORTER_OTLP_ENDPOINT this loads no SDK at all.
  const { startTracing } = await import("./lib/telemetry/start-tracing");
  await startTracing("web");
  const { setMetricsRole } = await import("./lib/telemetry/metrics");
  setMetricsRole("web");
  const { startServer } = await import("./lib/server/start-server");
  const { startWorkers } = await import("./worker/workers");
  await startServer({ startWorkers });
}
