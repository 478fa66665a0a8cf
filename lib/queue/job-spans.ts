import "server-only";
import type { Attributes, Span } from "@opentelemetry/api";
import type { Job } from "pg-boss";
import { metrics } from "@/lib/telemetry/metrics";
import {
  contextFromCarrier,
  currentTraceCarrier,
  failSpan,
  inSpan,
  SpanKind,
  setSpanAttributes,
  type TraceCarrier,
} from "@/lib/telemetry/tracing";

/** What every job's payload carries besides its own data: the trace context of the span that queued it. */
export type TracedJob = { trace?: TraceCarrier };

const messaging = (queue: string): Attributes => ({
  "messaging.system": "pg-boss",
  "messaging.destination.name": queue,
});

/**
 * Queues a job inside a PRODUCER span: `send` gets the span's trace context to put in the payload, and the
 * job is counted in brand_studio_jobs_enqueued_total once it is accepted (a throw counts nothing).
 */
export function enqueueInSpan<T>(
  queue: string,
  attributes: Attributes,
  send: (trace: TraceCarrier | undefined) => Promise<T>,
): Promise<T> {
  return inSpan(
    `${queue} enqueue`,
    { kind: SpanKind.PRODUCER, attributes: { ...messaging(queue), ...attributes } },
    async () => {
      const sent = await send(currentTraceCarrier());
      metrics().enqueued.inc({ queue });
      return sent;
    },
  );
}

/**
 * Runs one job attempt inside a CONSUMER span that continues the trace of the request that queued it (the
 * context rides in the payload). `name` defaults to `<queue> run`.
 */
export function runInSpan<T>(
  queue: string,
  job: Job<TracedJob>,
  attributes: Attributes,
  run: (span: Span) => Promise<T>,
  name = `${queue} run`,
): Promise<T> {
  return inSpan(
    name,
    {
      kind: SpanKind.CONSUMER,
      parent: contextFromCarrier(job.data.trace),
      attributes: { ...messaging(queue), "messaging.message.id": job.id, ...attributes },
    },
    run,
  );
}

/** A run's outcome, counted in brand_studio_job_runs_total and set on its span (ERROR if it failed or is retried). */
export function countRun(queue: string, span: Span, outcome: string) {
  metrics().jobRuns.inc({ queue, outcome });
  setSpanAttributes(span, { "brand_studio.outcome": outcome });
  if (outcome === "failed" || outcome === "retried") failSpan(span, outcome);
}
