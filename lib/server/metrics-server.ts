import http from "node:http";
import { getEnv } from "@/lib/config";
import { newRequestId } from "@/lib/errors/request-id";
import { log } from "@/lib/log";
import { renderMetrics } from "@/lib/telemetry/metrics";
import { isMetricsToken } from "@/lib/telemetry/scrape-metrics";
import { registerDomainGauges } from "./domain-gauges";

/**
 * A worker process serves no HTTP, so it exposes its registry on METRICS_PORT: `GET /metrics` with the
 * same bearer token as the web's /api/metrics (401 in the same envelope shape without it). Unset port: no
 * server. Listening on all interfaces, like the web port; keep it off the public network.
 */
export async function startMetricsServer(): Promise<http.Server | undefined> {
  const { METRICS_PORT: port, METRICS_TOKEN: token } = getEnv();
  if (!port) return undefined;
  if (!token) {
    log.warn("metrics_port_without_token", { port, hint: "set METRICS_TOKEN; the metrics server is off" });
    return undefined;
  }
  registerDomainGauges();
  const server = http.createServer((req, res) => {
    void (async () => {
      const path = (req.url ?? "/").split("?", 1)[0];
      const envelope = (status: number, code: string, message: string) => {
        res.writeHead(status, { "Content-Type": "application/json", "Cache-Control": "no-store" });
        res.end(
          JSON.stringify({
            error: { code, message, retryable: false, requestId: newRequestId(), docUrl: "/api-docs" },
          }),
        );
      };
      if (path !== "/metrics") return envelope(404, "not_found", "The metrics are at GET /metrics.");
      if (req.method !== "GET" && req.method !== "HEAD")
        return envelope(405, "method_not_allowed", "/metrics answers GET.");
      if (!isMetricsToken(req.headers.authorization, token))
        return envelope(
          401,
          "unauthorized",
          "Send the metrics token as `Authorization: Bearer <METRICS_TOKEN>`.",
        );
      try {
        const { body, contentType } = await renderMetrics();
        res.writeHead(200, { "Content-Type": contentType, "Cache-Control": "no-store" });
        res.end(req.method === "HEAD" ? undefined : body);
      } catch (error) {
        log.error("metrics_scrape_failed", { error });
        envelope(500, "internal_error", "The metrics could not be collected.");
      }
    })();
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, resolve);
  });
  log.info("metrics_listening", { port });
  return server;
}
