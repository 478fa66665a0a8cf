import "server-only";
import { type CallFailure, countedCall, statusOutcome } from "@/lib/telemetry/counted-call";
import { PlatformError } from "./platform-error";

/** How a failed platform call ended (metrics and spans, as for HeyGen and D-ID). */
function platformCallFailure(error: unknown): CallFailure {
  if (!(error instanceof PlatformError)) return { outcome: "unreachable" };
  if (error.status !== null) return { outcome: statusOutcome(error.status), status: error.status };
  return { outcome: error.kind === "unknown" ? "timeout" : "unreachable" };
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
  return countedCall(provider, `${provider} ${call}`, attributes, platformCallFailure, fn);
}

/** The host of a configured base URL for `server.address`, or "" when it does not parse. */
export function hostOf(url: string) {
  try {
    return new URL(url).host;
  } catch {
    return "";
  }
}
