/**
 * Why a call to a publishing platform failed, in the terms publishing acts on:
 * - `rejected`: the platform answered and did not post (400, 403, 404, …);
 * - `unauthorized`: 401, the token is revoked, expired or wrong;
 * - `transient`: 429 or 5xx, nothing was posted, try again (after `retryAfterSeconds` when given);
 * - `not_sent`: the request never reached the platform (connection refused, DNS);
 * - `unknown`: the request may have reached it and no answer came (timeout, connection cut).
 */
export type PlatformFailureKind = "rejected" | "unauthorized" | "transient" | "not_sent" | "unknown";

export class PlatformError extends Error {
  constructor(
    readonly platform: string,
    readonly kind: PlatformFailureKind,
    message: string,
    readonly status: number | null = null,
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(message);
    this.name = "PlatformError";
  }
}

const NOT_SENT_CODES = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH"]);

/** A fetch that threw: never reached the platform (`not_sent`) or may have (`unknown`). */
export function networkFailure(platform: string, error: unknown): PlatformError {
  const cause = (error as { cause?: { code?: string } }).cause;
  if ((error as Error).name === "TimeoutError")
    return new PlatformError(platform, "unknown", `${platform} did not answer in time.`);
  if (cause?.code && NOT_SENT_CODES.has(cause.code))
    return new PlatformError(platform, "not_sent", `${platform} could not be reached (${cause.code}).`);
  return new PlatformError(platform, "unknown", `The connection to ${platform} broke before it answered.`);
}

/** The kind an HTTP status means; 429 and 5xx are transient. */
export function kindOfStatus(status: number): PlatformFailureKind {
  if (status === 429 || status >= 500) return "transient";
  if (status === 401) return "unauthorized";
  return "rejected";
}
