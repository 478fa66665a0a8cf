import { ApiError } from "@/lib/errors/api-error";

/** Seconds a client should wait before retrying while the database is unreachable. */
export const OUTAGE_RETRY_AFTER_SECONDS = 5;

// postgres.js and Node socket codes that mean "no usable connection", not "bad query".
const CONNECTION_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EPIPE",
  "CONNECTION_ENDED",
  "CONNECTION_CLOSED",
  "CONNECTION_DESTROYED",
  "CONNECT_TIMEOUT",
  "CONNECTION_CONNECT_TIMEOUT",
]);

// SQLSTATEs of a server that is going away or cannot take us now: class 08 (connection exception),
// admin/crash shutdown, cannot connect now, too many connections, out of memory, disk full, read-only standby.
const UNAVAILABLE_SQLSTATE = /^(08...|57P0[123]|53[0-9]{3}|25006)$/;

// The embedded database closed, closing, or its folder held by another process.
const PGLITE_UNAVAILABLE = /^(PGlite is closed|PGlite is closing|PGlite failed to initialize)/;

type Candidate = { code?: unknown; name?: unknown; message?: unknown; cause?: unknown; errors?: unknown };

/** The error and everything it wraps (drizzle wraps driver errors in `cause`; Node wraps in AggregateError). */
function* chain(error: unknown, depth = 0): Generator<Candidate> {
  if (depth > 6 || error === null || typeof error !== "object") return;
  const candidate = error as Candidate;
  yield candidate;
  if (candidate.cause !== undefined) yield* chain(candidate.cause, depth + 1);
  if (Array.isArray(candidate.errors)) for (const item of candidate.errors) yield* chain(item, depth + 1);
}

export function isDatabaseUnavailable(error: unknown): boolean {
  for (const item of chain(error)) {
    const code = typeof item.code === "string" ? item.code : "";
    if (CONNECTION_CODES.has(code) || UNAVAILABLE_SQLSTATE.test(code)) return true;
    // The folder held by another process, or a schema behind the code (run npm run db:migrate).
    if (item.name === "DataDirLockedError" || item.name === "DatabaseNotMigratedError") return true;
    if (typeof item.message === "string" && PGLITE_UNAVAILABLE.test(item.message)) return true;
  }
  return false;
}

/** SQLSTATE class 22 (data exception): a value the database cannot store, such as a NUL byte or a date out of range. */
export function isBadValue(error: unknown): boolean {
  for (const item of chain(error)) {
    if (typeof item.code === "string" && /^22[0-9A-Z]{3}$/.test(item.code)) return true;
  }
  return false;
}

/**
 * Maps what the database throws onto the error table: an outage is 503 service_unavailable (retryable,
 * with Retry-After), a value it refuses is 400 invalid_request. Anything else stays unknown (undefined).
 */
export function classifyError(error: unknown): ApiError | undefined {
  if (isDatabaseUnavailable(error)) {
    return new ApiError(
      "service_unavailable",
      `The service cannot reach its database right now. Nothing was changed; try again in ${OUTAGE_RETRY_AFTER_SECONDS} s.`,
      { headers: { "Retry-After": String(OUTAGE_RETRY_AFTER_SECONDS) } },
    );
  }
  if (isBadValue(error)) {
    return new ApiError(
      "invalid_request",
      "A value in the request cannot be stored. Check the text you sent.",
    );
  }
  return undefined;
}
