import {
  type Attributes,
  type AttributeValue,
  type Context,
  context,
  createContextKey,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  TraceFlags,
  trace,
} from "@opentelemetry/api";

/**
 * Spans for Brand Studio's own work: API operations, queue enqueue and job runs, render phases, provider
 * calls and webhook deliveries. Only `@opentelemetry/api` is loaded here (a few kilobytes, no SDK): until
 * `startTracing` (lib/telemetry/start-tracing.ts) has registered the SDK, `inSpan` calls its function
 * straight away and starts nothing, so a process without OTEL_EXPORTER_OTLP_ENDPOINT pays one boolean test.
 * Under a parent-based sampler, a trace that was not sampled gets no spans of ours either (`unsampledParent`).
 */

const state = globalThis as unknown as { brandStudioTracing?: boolean; brandStudioParentBased?: boolean };

export const TRACER_NAME = "brand-studio";

/** `parentBased`: a span under a parent that is not sampled is not sampled either (the default sampler). */
export function markTracingStarted({ parentBased }: { parentBased: boolean }) {
  state.brandStudioTracing = true;
  state.brandStudioParentBased = parentBased;
}

/**
 * The parent's span when a parent-based sampler will drop whatever starts under it (the trace was not sampled):
 * then no span is made at all, and `fn` gets the parent's non-recording span.
 */
function unsampledParent(parent: Context): Span | undefined {
  if (!state.brandStudioParentBased) return undefined;
  const span = trace.getSpan(parent);
  if (!span) return undefined;
  // The flag, not isRecording(): a remote parent (a job's traceparent) is a non-recording span that was sampled.
  const spanContext = span.spanContext();
  const sampled = (spanContext.traceFlags & TraceFlags.SAMPLED) !== 0;
  return !sampled && trace.isSpanContextValid(spanContext) ? span : undefined;
}

export function tracingEnabled() {
  return state.brandStudioTracing === true;
}

export { SpanKind };

/** Attribute names that may hold a credential or personal text: never exported, whatever the caller passed. */
const SECRET_KEY =
  /secret|password|authorization|cookie|api[_.-]?key|token|prompt|script|brief|signature|email/i;
/** Counts are safe even where their name says "token" or "prompt" (the AI SDK's usage attributes). */
const COUNT_KEY = /usage|tokens$/i;

/** A URL without credentials, query and fragment: signed media URLs carry `sig=`/`X-Amz-Signature=` there. */
export function urlForSpan(value: string) {
  try {
    const url = new URL(value);
    return `${url.protocol}//${url.host}${url.pathname}`;
  } catch {
    return value.split(/[?#]/, 1)[0].replace(/\/\/[^/@]*@/, "//");
  }
}

/** A Telegram bot token (`<bot id>:<secret>`), which the Bot API puts in the URL's path (`/bot<token>/…`). */
const BOT_TOKEN = /\d{3,}:[A-Za-z0-9_-]{20,}/g;

/**
 * Free text that may quote a URL (a span's name: Next names its fetch spans `fetch POST <url>`): each URL
 * loses its query and user info, and a bot token anywhere becomes `{token}`.
 */
export function scrubText(value: string) {
  return value
    .replace(/[a-z][a-z0-9+.-]*:\/\/[^\s"'<>]+/gi, (url) => urlForSpan(url))
    .replace(BOT_TOKEN, "{token}");
}

function cleanValue(value: AttributeValue): AttributeValue | undefined {
  if (Array.isArray(value))
    return value.map((item) => (typeof item === "string" ? cleanValue(item) : item)) as AttributeValue;
  if (typeof value !== "string") return value;
  // A URL, or a request target (`/media/…?exp=…&sig=…`, Next's http.target), keeps only its path, and a
  // path's bot token (Telegram's `/bot<token>/sendMessage`) becomes `{token}`.
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value) || value.startsWith("/"))
    return urlForSpan(value).replace(BOT_TOKEN, "{token}");
  if (BOT_TOKEN.test(value)) {
    BOT_TOKEN.lastIndex = 0;
    return value.replace(BOT_TOKEN, "{token}");
  }
  if (/(?:^|[?&\s])(?:sig|signature|token|x-amz-signature|x-amz-credential)=/i.test(value)) return undefined;
  if (/\bBearer\s+\S|\bbsk_[A-Za-z0-9]/.test(value)) return undefined;
  return value;
}

/** The attributes with secret-looking keys dropped and URLs stripped of their query (signatures). */
export function safeAttributes(attributes: Attributes = {}): Attributes {
  const out: Attributes = {};
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined || value === null) continue;
    if (SECRET_KEY.test(key) && !(COUNT_KEY.test(key) && typeof value === "number")) continue;
    const clean = cleanValue(value);
    if (clean !== undefined) out[key] = clean;
  }
  return out;
}

const noopSpan = trace.wrapSpanContext({ traceId: "", spanId: "", traceFlags: 0 });

type SpanOptions = { kind?: SpanKind; attributes?: Attributes; parent?: Context };

/**
 * Runs `fn` inside a span named `name` (a child of the active span, or of `parent`). The span ends when
 * `fn` settles; a throw marks it ERROR with the error's name (never its message, which may quote input).
 */
export async function inSpan<T>(
  name: string,
  options: SpanOptions,
  fn: (span: Span) => Promise<T> | T,
): Promise<T> {
  if (!tracingEnabled()) return fn(noopSpan);
  const parent = options.parent ?? context.active();
  const unsampled = unsampledParent(parent);
  if (unsampled) return fn(unsampled);
  const tracer = trace.getTracer(TRACER_NAME);
  return tracer.startActiveSpan(
    name,
    { kind: options.kind ?? SpanKind.INTERNAL, attributes: safeAttributes(options.attributes) },
    parent,
    async (span) => {
      try {
        return await fn(span);
      } catch (error) {
        span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error)?.name ?? "Error" });
        span.setAttribute("error.type", (error as Error)?.name ?? "Error");
        throw error;
      } finally {
        span.end();
      }
    },
  );
}

/** Sets attributes on a span after the same cleaning as at its start. */
export function setSpanAttributes(span: Span, attributes: Attributes) {
  if (!tracingEnabled()) return;
  span.setAttributes(safeAttributes(attributes));
}

/** Marks a span failed with a short, input-free reason (an error code). */
export function failSpan(span: Span, code: string) {
  if (!tracingEnabled()) return;
  span.setStatus({ code: SpanStatusCode.ERROR, message: code });
}

/** W3C trace context of the active span (`traceparent`, `tracestate`), for a job's payload. */
export type TraceCarrier = { traceparent?: string; tracestate?: string };

export function currentTraceCarrier(): TraceCarrier | undefined {
  if (!tracingEnabled()) return undefined;
  const carrier: TraceCarrier = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent ? carrier : undefined;
}

/** The context a job's payload carried (its enqueue span's), or none. */
export function contextFromCarrier(carrier: TraceCarrier | undefined): Context {
  if (!carrier?.traceparent) return context.active();
  return propagation.extract(ROOT_CONTEXT, carrier);
}

const REQUEST_ID = createContextKey("brand_studio.request_id");

/**
 * The context an API operation's span starts in, carrying its request id, so every log line written while
 * it runs says `requestId` beside `traceId` and `spanId`. Tracing off: undefined (nothing is made).
 */
export function requestContext(requestId: string): Context | undefined {
  if (!tracingEnabled()) return undefined;
  return context.active().setValue(REQUEST_ID, requestId);
}

/** The active span's ids (and the request's id, inside an operation), for log lines; none when tracing is off. */
export function activeTraceIds(): { traceId: string; spanId: string; requestId?: string } | undefined {
  if (!tracingEnabled()) return undefined;
  const active = context.active();
  const spanContext = trace.getSpan(active)?.spanContext();
  if (!spanContext || !trace.isSpanContextValid(spanContext)) return undefined;
  const requestId = active.getValue(REQUEST_ID);
  return {
    traceId: spanContext.traceId,
    spanId: spanContext.spanId,
    ...(typeof requestId === "string" ? { requestId } : {}),
  };
}

/**
 * A span for an AI call the AI SDK does not trace (its generateImage and generateSpeech take no telemetry
 * option; moderation is a plain request): the operation and the model, never what the model was given.
 */
export function inAiSpan<T>(operation: string, model: string, fn: () => Promise<T>): Promise<T> {
  return inSpan(
    `ai.${operation}`,
    {
      kind: SpanKind.CLIENT,
      attributes: { "gen_ai.operation.name": operation, "gen_ai.request.model": model },
    },
    fn,
  );
}

/** The AI SDK's own spans (ai.generateText, ai.streamText …) without the prompt or the model's answer. */
export function aiTelemetry() {
  const isEnabled = tracingEnabled() && !unsampledParent(context.active());
  return { isEnabled, recordInputs: false, recordOutputs: false } as const;
}
