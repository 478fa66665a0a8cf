import type { tracing } from "@opentelemetry/sdk-node";
import { safeAttributes, scrubText } from "./tracing";

type ReadableSpan = tracing.ReadableSpan;
type SpanExporter = tracing.SpanExporter;
type ExportDone = Parameters<SpanExporter["export"]>[1];

/**
 * The last word on what leaves the process: every span (ours, Next's, the AI SDK's) is exported with its
 * attributes and its events' attributes cleaned by `safeAttributes` — secret-looking names dropped, URLs
 * and request targets cut before their query (signed media URLs' `sig=`), bearer tokens and API keys
 * refused; span names quoting a URL get the same treatment (Next's fetch spans), and Telegram bot tokens
 * (in the Bot API's URL path) become `{token}`. Next's server span, for one, records `http.target` with the
 * query string.
 */
export class ScrubbingExporter implements SpanExporter {
  constructor(private readonly inner: SpanExporter) {}

  export(spans: ReadableSpan[], done: ExportDone) {
    const clean = spans.map(
      (span) =>
        Object.create(span, {
          // Next names its fetch spans after the URL (`fetch POST https://…/bot<token>/sendMessage`).
          name: { value: scrubText(span.name), enumerable: true },
          attributes: { value: safeAttributes(span.attributes), enumerable: true },
          events: {
            value: span.events.map((event) => ({
              ...event,
              attributes: event.attributes && safeAttributes(event.attributes),
            })),
            enumerable: true,
          },
        }) as ReadableSpan,
    );
    this.inner.export(clean, done);
  }

  shutdown() {
    return this.inner.shutdown();
  }

  forceFlush() {
    return this.inner.forceFlush?.() ?? Promise.resolve();
  }
}
