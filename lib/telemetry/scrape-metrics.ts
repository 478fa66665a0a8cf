import "server-only";
import { timingSafeEqual } from "node:crypto";
import { getEnv } from "@/lib/config";
import { ApiError } from "@/lib/errors/api-error";
import { renderMetrics } from "./metrics";

/** True when `authorization` is `Bearer <METRICS_TOKEN>` (compared in constant time). */
export function isMetricsToken(authorization: string | null | undefined, token: string) {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "");
  if (!match) return false;
  const given = Buffer.from(match[1]);
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * GET /api/metrics: the web process's registry in the Prometheus text format. Off (404, as if the path did
 * not exist) while METRICS_TOKEN is unset; with it, only `Authorization: Bearer <METRICS_TOKEN>` reads it
 * (401 otherwise). Sessions and API keys do not: a scraper is not a user.
 */
export async function scrapeMetrics(authorization: string | null): Promise<Response> {
  const token = getEnv().METRICS_TOKEN;
  if (!token) {
    throw new ApiError("not_found", "Metrics are off on this server: set METRICS_TOKEN to turn them on.");
  }
  if (!isMetricsToken(authorization, token)) {
    throw new ApiError("unauthorized", "Send the metrics token as `Authorization: Bearer <METRICS_TOKEN>`.");
  }
  const { body, contentType } = await renderMetrics();
  return new Response(body, { headers: { "Content-Type": contentType, "Cache-Control": "no-store" } });
}
