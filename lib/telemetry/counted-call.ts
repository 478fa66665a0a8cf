import "server-only";
import type { Attributes, Span } from "@opentelemetry/api";
import { metrics } from "./metrics";
import { failSpan, inSpan, SpanKind, setSpanAttributes } from "./tracing";

/** How a failed call ended: its outcome label and, when there was an answer, its HTTP status. */
export type CallFailure = { outcome: string; status?: number | null };

/** The outcome of an answer that is not a success. */
export function statusOutcome(status: number) {
  if (status === 429) return "rate_limited";
  return status >= 500 ? "server_error" : "client_error";
}

/**
 * One call to an outside service (a hosted video provider, a publishing platform) in a CLIENT span `name`,
 * counted in brand_studio_provider_calls_total by provider and outcome: `ok`, or what `failure` makes of
 * the error (ok, client_error, rate_limited, server_error, timeout, unreachable).
 */
export function countedCall<T>(
  provider: string,
  name: string,
  attributes: Attributes,
  failure: (error: unknown) => CallFailure,
  call: (span: Span) => Promise<T>,
): Promise<T> {
  return inSpan(
    name,
    { kind: SpanKind.CLIENT, attributes: { "brand_studio.provider": provider, ...attributes } },
    async (span) => {
      try {
        const result = await call(span);
        metrics().providerCalls.inc({ provider, outcome: "ok" });
        setSpanAttributes(span, { "brand_studio.outcome": "ok" });
        return result;
      } catch (error) {
        const { outcome, status } = failure(error);
        metrics().providerCalls.inc({ provider, outcome });
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
