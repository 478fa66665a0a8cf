import { activeTraceIds } from "@/lib/telemetry/tracing";

type Level = "info" | "warn" | "error";

const SECRET_KEYS = /authorization|password|secret|token|apikey|api_key|cookie/i;

/**
 * Secrets by their shape, wherever they appear in a string (an error's message or stack, a field):
 * webhook signing secrets, API keys, Telegram bot tokens, bearer and basic credentials.
 */
const SECRET_SHAPES: RegExp[] = [
  /whsec_[A-Za-z0-9+/=_-]+/g,
  /bsk_[A-Za-z0-9_-]+/g,
  /\d{5,}:[A-Za-z0-9_-]{30,}/g,
  /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi,
];

/** A drizzle query error's text ends with `params: …`, the values the query was sent with. */
const QUERY_PARAMS = /(\nparams: )[\s\S]*?(?=\n\s+at |$)/g;

export function redactText(text: string) {
  let clean = text.replace(QUERY_PARAMS, "$1[redacted]");
  for (const shape of SECRET_SHAPES) {
    clean = clean.replace(shape, (match) =>
      /^(bearer|basic)\s/i.test(match) ? `${match.split(/\s/)[0]} [redacted]` : "[redacted]",
    );
  }
  return clean;
}

function redact(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return redactText(value);
  if (depth > 4 || value === null || typeof value !== "object") return value;
  if (value instanceof Error) {
    // A driver's `detail` is left out: it can quote the row that failed, every column of it.
    const { code } = value as { code?: unknown };
    return {
      name: value.name,
      message: redactText(value.message),
      stack: value.stack === undefined ? undefined : redactText(value.stack),
      ...(code === undefined ? {} : { code }),
      ...(value.cause === undefined ? {} : { cause: redact(value.cause, depth + 1) }),
    };
  }
  if (Array.isArray(value)) return value.map((item) => redact(item, depth + 1));
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [
      key,
      SECRET_KEYS.test(key) ? "[redacted]" : redact(item, depth + 1),
    ]),
  );
}

/**
 * Structured log lines: one JSON object per line, secrets redacted by key name, by shape in any text, and a
 * database error's query parameters (which hold whatever was written, secrets included) left out. Inside a span (tracing on)
 * the line carries its `traceId` and `spanId`, and inside an API operation its `requestId`, so a log line
 * and its trace find each other.
 */
function write(level: Level, event: string, fields: Record<string, unknown> = {}) {
  const ids = activeTraceIds();
  const line = JSON.stringify({
    level,
    time: new Date().toISOString(),
    event,
    // Inside an API operation (tracing on) every line names its request, even where the caller did not.
    ...(ids?.requestId ? { requestId: ids.requestId } : {}),
    ...(redact(fields) as object),
    ...(ids ? { traceId: ids.traceId, spanId: ids.spanId } : {}),
  });
  if (level === "error") console.error(line);
  else if (level === "warn") console.warn(line);
  else writeInfo(line);
}

/**
 * Info lines (one or more per request on the hot paths: every post made, every job polled) are written
 * straight to stdout, once the current task is done, all pending ones in one write: through `console.log`
 * each line went through Next's console wrappers and a write of its own before the response was sent.
 * Warnings and errors stay immediate. Lines still pending when the process exits are written then.
 */
// On globalThis: Next bundles each route with its own copy of this module, and they share one buffer.
const globalForLog = globalThis as unknown as {
  brandStudioLog?: { pending: string[]; scheduled: boolean };
};
if (!globalForLog.brandStudioLog) {
  const state = { pending: [] as string[], scheduled: false };
  if (typeof process.once === "function") process.once("exit", () => flushInfo(state));
  globalForLog.brandStudioLog = state;
}
const buffer = globalForLog.brandStudioLog;

function flushInfo(state: { pending: string[]; scheduled: boolean }) {
  state.scheduled = false;
  if (state.pending.length === 0) return;
  const text = `${state.pending.join("\n")}\n`;
  state.pending.length = 0;
  process.stdout.write(text);
}

function writeInfo(line: string) {
  buffer.pending.push(line);
  if (buffer.scheduled) return;
  buffer.scheduled = true;
  setImmediate(flushInfo, buffer);
}

export const log = {
  info: (event: string, fields?: Record<string, unknown>) => write("info", event, fields),
  warn: (event: string, fields?: Record<string, unknown>) => write("warn", event, fields),
  error: (event: string, fields?: Record<string, unknown>) => write("error", event, fields),
};
