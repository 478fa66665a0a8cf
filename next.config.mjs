/**
 * JavaScript, not next.config.ts: Next compiles a TypeScript config with its SWC native binding every time a
 * server starts, and the binding stays loaded for the life of the process, about 30 MB of each server's RSS
 * (bench/notes.md, "Idle RSS"). The JSDoc type keeps the editor's checking.
 * @type {import("next").NextConfig}
 */
const nextConfig = {
  // These hold native or WASM parts and process-wide state (the one PGlite instance, the queue):
  // bundling them would give each route its own copy.
  serverExternalPackages: [
    "@electric-sql/pglite",
    "pg-boss",
    "postgres",
    "sharp",
    "@ffmpeg-installer/ffmpeg",
    // One copy per process: the OpenTelemetry API keeps its tracer provider on globalThis, and the
    // Prometheus registry is a process-wide singleton.
    "@opentelemetry/api",
    "@opentelemetry/sdk-node",
    "@opentelemetry/exporter-trace-otlp-http",
    "@opentelemetry/exporter-trace-otlp-proto",
    "@opentelemetry/exporter-trace-otlp-grpc",
    "prom-client",
    // The pinned, SSRF-checked dispatcher for outbound fetches (lib/security/outbound-fetch.ts).
    "undici",
  ],
  // Tests build into their own folder so a running dev server is never disturbed.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  poweredByHeader: false,
  // The API gate (lib/server/http-guard.ts) and proxy.ts do the trailing-slash redirect themselves, so /api
  // redirects carry X-Request-Id.
  skipTrailingSlashRedirect: true,
  typedRoutes: false,
};

export default nextConfig;
