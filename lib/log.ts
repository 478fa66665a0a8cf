import { activeTraceIds } from "@/lib/telemetry/tracing";

type Level = "info" | "warn" | "error";

const SECRET_KEYS = /authorization|password|secret|token|apikey|api_key|cookie/i;

function redact(value: unknown, depth = 0): unknown {
  if (depth > 4 || value === null || typeof value !== "object") return value;
  if (value instanceof Error) return { name: value.name, message: value.message, stack: value.stack };
  if (Array.isArray(value)) return value.map((item) => redact(item, depth + 1));
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [
      key,
      SECRET_KEYS.test(key) ? "[redacted]" : redact(item, depth + 1),
    ]),
  );
}

/**
 * Structured log lines: one JSON object per line, secrets redacted by key name. Inside a span (tracing on)
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
