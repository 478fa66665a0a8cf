import { getEnv } from "@/lib/config";
import { markTracingStarted, tracingEnabled } from "./tracing";

const state = globalThis as unknown as { brandStudioTracingSdk?: { shutdown: () => Promise<void> } };

/**
 * Starts the OpenTelemetry Node SDK when OTEL_EXPORTER_OTLP_ENDPOINT is set, and loads nothing of it when
 * it is not. Traces only, over OTLP in the protocol OTEL_EXPORTER_OTLP_PROTOCOL names (http/protobuf, http/json
 * or grpc), batched per OTEL_BSP_*, every span cleaned of secrets by ScrubbingExporter; metrics are Prometheus (lib/telemetry/metrics.ts) and
 * logs stay JSON lines on stdout (lib/log.ts carries the trace ids). Sampled per OTEL_TRACES_SAMPLER (default
 * parent-based, 10 % of new traces; see `sampler`). No auto-instrumentation: the spans are
 * ours (lib/telemetry/tracing.ts), Next's own (the HTTP server span and its route span) and the AI SDK's.
 */
export async function startTracing(role: "web" | "worker") {
  if (tracingEnabled()) return;
  const env = getEnv();
  if (!env.OTEL_EXPORTER_OTLP_ENDPOINT) return;
  const { NodeSDK, tracing } = await import("@opentelemetry/sdk-node");
  const { ScrubbingExporter } = await import("./scrubbing-exporter");
  const name = env.OTEL_TRACES_SAMPLER ?? "parentbased_traceidratio";
  const sdk = new NodeSDK({
    serviceName: env.OTEL_SERVICE_NAME ?? `brand-studio-${role}`,
    sampler: sampler(tracing, name, env.OTEL_TRACES_SAMPLER_ARG),
    // Batched per OTEL_BSP_* (the SDK's batch processor); every span is cleaned on its way out.
    traceExporter: new ScrubbingExporter(await otlpExporter(env.OTEL_EXPORTER_OTLP_PROTOCOL)),
    instrumentations: [],
    metricReaders: [],
    logRecordProcessors: [],
  });
  sdk.start();
  state.brandStudioTracingSdk = sdk;
  markTracingStarted({ parentBased: name.startsWith("parentbased_") });
}

type SamplerName = NonNullable<ReturnType<typeof getEnv>["OTEL_TRACES_SAMPLER"]>;

/**
 * The sampler OTEL_TRACES_SAMPLER names, with OTEL_TRACES_SAMPLER_ARG as the ratio (default 0.1, where the SDK
 * would take 1). Unset: parentbased_traceidratio, so a request that arrives with a `traceparent` follows its
 * caller's decision and 10 % of the traces that start here are kept.
 */
function sampler(
  tracing: typeof import("@opentelemetry/sdk-node").tracing,
  name: SamplerName,
  ratio: number,
) {
  const root = name.endsWith("always_on")
    ? new tracing.AlwaysOnSampler()
    : name.endsWith("always_off")
      ? new tracing.AlwaysOffSampler()
      : new tracing.TraceIdRatioBasedSampler(ratio);
  return name.startsWith("parentbased_") ? new tracing.ParentBasedSampler({ root }) : root;
}

/** The OTLP trace exporter for the protocol; each reads OTEL_EXPORTER_OTLP_* (endpoint, headers) itself. */
async function otlpExporter(protocol: "http/protobuf" | "http/json" | "grpc") {
  if (protocol === "http/json") {
    const { OTLPTraceExporter } = await import("@opentelemetry/exporter-trace-otlp-http");
    return new OTLPTraceExporter();
  }
  if (protocol === "grpc") {
    const { OTLPTraceExporter } = await import("@opentelemetry/exporter-trace-otlp-grpc");
    return new OTLPTraceExporter();
  }
  const { OTLPTraceExporter } = await import("@opentelemetry/exporter-trace-otlp-proto");
  return new OTLPTraceExporter();
}

/** Sends the spans still in the batch (a stopping process calls it before it exits). */
export async function stopTracing() {
  const sdk = state.brandStudioTracingSdk;
  state.brandStudioTracingSdk = undefined;
  await sdk?.shutdown().catch(() => {});
}
