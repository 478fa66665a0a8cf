import "server-only";
import { metrics } from "@/lib/telemetry/metrics";
import { failSpan, inSpan, SpanKind, setSpanAttributes } from "@/lib/telemetry/tracing";
import { PlatformError } from "./platform-error";

/** The provider-call outcome (metrics and spans, as for HeyGen and D-ID) of a failed platform call. */
export function platformCallOutcome(error: unknown) {
  if (!(error instanceof PlatformError)) return "unreachable";
  if (error.status === 429) return "rate_limited";
  if (error.status !== null && error.status >= 500) return "server_error";
  if (error.status !== null) return "client_error";
  return error.kind === "unknown" ? "timeout" : "unreachable";
}

/**
 * One call to a publishing platform, in a CLIENT span `<provider> <call>` counted in
 * brand_studio_provider_calls_total by provider and outcome. `call` and `attributes` name the method and the
 * host, never a URL: Telegram's URLs hold the bot token, Instagram's the access token, LinkedIn's upload
 * URLs are signed.
 */
export function platformCall<T>(
  provider: string,
  call: string,
  attributes: Record<string, string>,
  fn: () => Promise<T>,
): Promise<T> {
  return inSpan(
    `${provider} ${call}`,
    { kind: SpanKind.CLIENT, attributes: { "brand_studio.provider": provider, ...attributes } },
    async (span) => {
      try {
        const result = await fn();
        metrics().providerCalls.inc({ provider, outcome: "ok" });
        setSpanAttributes(span, { "brand_studio.outcome": "ok" });
        return result;
      } catch (error) {
        const outcome = platformCallOutcome(error);
        metrics().providerCalls.inc({ provider, outcome });
        const status = error instanceof PlatformError ? error.status : null;
        setSpanAttributes(span, {
          "brand_studio.outcome": outcome,
          ...(status ? { "http.response.status_code": status } : {}),
        });
        failSpan(span, outcome);
        throw error;
      }
    },
  );
}

/** The host of a configured base URL for `server.address`, or "" when it does not parse. */
export function hostOf(url: string) {
  try {
    return new URL(url).host;
  } catch {
    return "";
  }
}
