import { getEnv } from "@/lib/config";
import { markTracingStarted, tracingEnabled } from "./tracing";

const state = globalThis as unknown as { brandStudioTracingSdk?: { shutdown: () => Promise<void> } };

/**
 * Starts the OpenTelemetry Node SDK when OTEL_EXPORTER_OTLP_ENDPOINT is set, and loads nothing of it when
 * it is not. Traces only: the SDK picks the OTLP exporter from OTEL_EXPORTER_OTLP_PROTOCOL (http/protobuf,
 * http/json or grpc) and batches per OTEL_BSP_*; metrics are Prometheus (lib/telemetry/metrics.ts) and
 * logs stay JSON lines on stdout (lib/log.ts carries the trace ids). No auto-instrumentation: the spans are
 * ours (lib/telemetry/tracing.ts), Next's own (the HTTP server span and its route span) and the AI SDK's.
 */
export async function startTracing(role: "web" | "worker") {
  if (tracingEnabled()) return;
  const env = getEnv();
  if (!env.OTEL_EXPORTER_OTLP_ENDPOINT) return;
  const { NodeSDK } = await import("@opentelemetry/sdk-node");
  const sdk = new NodeSDK({
    serviceName: env.OTEL_SERVICE_NAME ?? `brand-studio-${role}`,
    instrumentations: [],
    metricReaders: [],
    logRecordProcessors: [],
  });
  sdk.start();
  state.brandStudioTracingSdk = sdk;
  markTracingStarted();
}

/** Sends the spans still in the batch (a stopping process calls it before it exits). */
export async function stopTracing() {
  const sdk = state.brandStudioTracingSdk;
  state.brandStudioTracingSdk = undefined;
  await sdk?.shutdown().catch(() => {});
}
