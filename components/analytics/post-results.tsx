"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import { Button, Card, ErrorNotice } from "@/components/ui/primitives";
import { ApiClientError, callApi } from "@/lib/client/api-client";
import { getPostMetrics, refreshPostMetrics } from "@/lib/client/operations";
import { queryKeys } from "@/lib/client/queries";
import type { postMetricsResponse } from "@/lib/contracts/analytics";
import { ChartBlock, formatCount, formatRate } from "./chart-block";

type PublicationMetrics = z.infer<typeof postMetricsResponse>["publications"][number];

const CHANNEL_NAMES = { telegram: "Telegram", instagram: "Instagram", linkedin: "LinkedIn" } as const;
const METRIC_LABELS = {
  views: "Views",
  reach: "Reach",
  reactions: "Reactions",
  comments: "Comments",
  shares: "Shares",
  saves: "Saves",
  interactions: "Interactions",
} as const;
const COLORS = ["#4f46e5", "#0891b2", "#db2777", "#ca8a04"];

const when = (iso: string) =>
  new Date(iso).toLocaleString("en-GB", {
    day: "numeric",
    month: "short",
    hour: "2-digit",
    minute: "2-digit",
  });

function PublicationResults({ publication }: { publication: PublicationMetrics }) {
  const charted = (["views", "reach", "interactions", "reactions"] as const).filter((name) =>
    publication.series.some((point) => point.values[name] !== undefined),
  );
  const series = charted
    .slice(0, 3)
    .map((name, index) => ({ key: name, name: METRIC_LABELS[name], color: COLORS[index] }));
  const data = publication.series.map((point) => ({ label: when(point.capturedAt), ...point.values }));
  const name = `${CHANNEL_NAMES[publication.channel]}${publication.accountName ? ` · ${publication.accountName}` : ""}`;
  return (
    <section
      aria-label={`Results on ${name}`}
      className="space-y-3 border-t border-slate-100 pt-4 first:border-0 first:pt-0"
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 className="font-medium text-slate-900">{name}</h3>
        <p className="text-xs text-slate-500">
          {publication.pulledAt ? `Updated ${when(publication.pulledAt)}` : "Not read yet"}
          {publication.nextPullAt ? ` · next ${when(publication.nextPullAt)}` : ""}
        </p>
      </div>
      {publication.notice && (
        <p role="note" className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900">
          {publication.notice}
        </p>
      )}
      {publication.error && (
        <p role="note" className="rounded-lg bg-slate-100 px-3 py-2 text-sm text-slate-700">
          The last read failed ({publication.error.code}): {publication.error.message ?? "no details"}.
          Earlier numbers are kept.
        </p>
      )}
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4" data-testid={`metrics-${publication.channel}`}>
        {publication.metrics.map((metric) => (
          <div key={metric.name} className="rounded-lg bg-slate-50 px-3 py-2">
            <dt className="text-xs text-slate-600">{METRIC_LABELS[metric.name]}</dt>
            <dd className="text-lg font-semibold tabular-nums text-slate-900" data-metric={metric.name}>
              {metric.state === "measured" ? (
                formatCount(metric.value)
              ) : (
                <span className="text-sm font-normal text-slate-600" title={metric.reason ?? undefined}>
                  {metric.state === "pending" ? "Pending" : "Not available"}
                </span>
              )}
            </dd>
            {metric.state !== "measured" && metric.reason && (
              <dd className="text-xs text-slate-500">{metric.reason}</dd>
            )}
          </div>
        ))}
        <div className="rounded-lg bg-slate-50 px-3 py-2">
          <dt className="text-xs text-slate-600">Engagement rate</dt>
          <dd className="text-lg font-semibold tabular-nums text-slate-900">
            {formatRate(publication.engagementRate)}
          </dd>
        </div>
      </dl>
      {data.length > 0 && series.length > 0 ? (
        <ChartBlock title={`${name} over time`} data={data} series={series} height={140} />
      ) : (
        <p className="text-sm text-slate-600">Results appear within an hour of publishing.</p>
      )}
    </section>
  );
}

/** A published post's results per channel (studio), with "Refresh now" for owners. */
export function PostResults({ postId, canRefresh }: { postId: string; canRefresh: boolean }) {
  const queryClient = useQueryClient();
  const queryKey = queryKeys.posts.metrics(postId);
  const metrics = useQuery({
    queryKey,
    queryFn: async ({ signal }) => (await callApi(getPostMetrics, { params: { postId }, signal })).data,
    refetchInterval: 60_000,
  });
  const refresh = useMutation({
    mutationFn: async () => (await callApi(refreshPostMetrics, { params: { postId } })).data,
    onSuccess: () => {
      // The pulls run within seconds: read again shortly.
      setTimeout(() => void queryClient.invalidateQueries({ queryKey }), 3000);
    },
  });
  const publications = metrics.data?.publications ?? [];
  return (
    <Card className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 className="text-lg font-semibold">Results</h2>
        {canRefresh && publications.length > 0 && (
          <Button variant="secondary" onClick={() => refresh.mutate()} disabled={refresh.isPending}>
            {refresh.isPending ? "Refreshing…" : "Refresh now"}
          </Button>
        )}
      </div>
      {refresh.isError && (
        <ErrorNotice
          message={
            refresh.error instanceof ApiClientError
              ? refresh.error.message
              : "The refresh could not be queued."
          }
        />
      )}
      {refresh.isSuccess && (
        <p role="status" className="text-sm text-slate-600">
          Reading the latest numbers from {refresh.data.queued} channel{refresh.data.queued === 1 ? "" : "s"}…
        </p>
      )}
      {metrics.isPending ? (
        <p role="status" className="text-sm text-slate-600">
          Loading results…
        </p>
      ) : metrics.isError ? (
        <ErrorNotice message="The results could not be loaded." onRetry={() => void metrics.refetch()} />
      ) : publications.length === 0 ? (
        <p className="text-sm text-slate-600">
          No published posts yet: results appear here once this post is published.
        </p>
      ) : (
        publications.map((publication) => (
          <PublicationResults key={publication.publicationId} publication={publication} />
        ))
      )}
    </Card>
  );
}
