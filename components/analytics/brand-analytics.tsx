"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useMemo, useState } from "react";
import type { z } from "zod";
import { Button, Card, ErrorNotice } from "@/components/ui/primitives";
import { authorizedFetch, callApi } from "@/lib/client/api-client";
import { getBrandAnalytics, listChannels } from "@/lib/client/operations";
import { brandQueries } from "@/lib/client/queries";
import type { brandAnalyticsResponse } from "@/lib/contracts/analytics";
import { zonedDayKey } from "@/lib/contracts/time-zone";
import { ChartBlock, formatCount, formatRate } from "./chart-block";

type Analytics = z.infer<typeof brandAnalyticsResponse>;
type Totals = Analytics["totals"];

const PERIODS = [
  { days: 7, label: "Last 7 days" },
  { days: 30, label: "Last 30 days" },
  { days: 90, label: "Last 90 days" },
  { days: 365, label: "Last 12 months" },
];
const CHANNEL_NAMES = { telegram: "Telegram", instagram: "Instagram", linkedin: "LinkedIn" } as const;
const WEEKDAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
const COLORS = ["#4f46e5", "#0891b2", "#db2777", "#ca8a04", "#16a34a"];
const PAGE_SIZE = 5;

const dayMinus = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);
// Made once: toLocaleDateString makes a formatter per call (a year is 365 days, per chart).
const SHORT_DAY = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", timeZone: "UTC" });
const shortDay = (day: string) => SHORT_DAY.format(new Date(`${day}T00:00:00Z`));

function change(current: number | null, previous: number | null) {
  if (current === null || previous === null || previous === 0) return null;
  return (current - previous) / previous;
}

function TotalCard({
  label,
  current,
  previous,
  rate = false,
}: {
  label: string;
  current: number | null;
  previous: number | null;
  rate?: boolean;
}) {
  const delta = change(current, previous);
  const show = rate ? formatRate : formatCount;
  return (
    <div className="rounded-lg border border-slate-200 px-4 py-3">
      <dt className="text-xs text-slate-600">{label}</dt>
      <dd className="text-2xl font-semibold tabular-nums text-slate-900">{show(current)}</dd>
      <dd className="text-xs text-slate-600">
        {previous === null ? "No figure for the period before" : `Period before: ${show(previous)}`}
        {delta !== null && (
          <span className={delta >= 0 ? "ml-1 text-green-700" : "ml-1 text-red-700"}>
            ({delta >= 0 ? "+" : ""}
            {Math.round(delta * 100)}%)
          </span>
        )}
      </dd>
    </div>
  );
}

function Totals({ totals, previous }: { totals: Totals; previous: Totals }) {
  return (
    <dl className="grid grid-cols-2 gap-3 lg:grid-cols-5">
      <TotalCard label="Posts" current={totals.posts} previous={previous.posts} />
      <TotalCard label="Views" current={totals.views} previous={previous.views} />
      <TotalCard label="Reach" current={totals.reach} previous={previous.reach} />
      <TotalCard label="Interactions" current={totals.interactions} previous={previous.interactions} />
      <TotalCard
        label="Engagement rate"
        current={totals.engagementRate}
        previous={previous.engagementRate}
        rate
      />
    </dl>
  );
}

/** Engagement by weekday and hour of publishing, in the brand's time zone: the table is the chart. */
function Heatmap({ cells, timeZone }: { cells: Analytics["heatmap"]; timeZone: string }) {
  const at = new Map(cells.map((cell) => [`${cell.weekday}:${cell.hour}`, cell]));
  const best = Math.max(0, ...cells.map((cell) => cell.engagementRate ?? 0));
  return (
    <div className="overflow-x-auto">
      <table className="border-separate border-spacing-0.5 text-[10px]">
        <caption className="mb-2 text-left text-sm text-slate-600">
          Engagement rate by the weekday and hour posts went out ({timeZone}); a dash means no post, or no
          reach to measure.
        </caption>
        <thead>
          <tr>
            <th scope="col" className="sr-only">
              Weekday
            </th>
            {Array.from({ length: 24 }, (_, hour) => (
              <th key={hour} scope="col" className="w-7 font-normal text-slate-500">
                {String(hour).padStart(2, "0")}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {WEEKDAYS.map((name, weekday) => (
            <tr key={name}>
              <th scope="row" className="pr-1 text-left font-normal text-slate-600">
                {name}
              </th>
              {Array.from({ length: 24 }, (_, hour) => {
                const cell = at.get(`${weekday}:${hour}`);
                const strength = cell?.engagementRate && best ? cell.engagementRate / best : 0;
                return (
                  <td
                    key={hour}
                    className="h-7 w-7 rounded text-center tabular-nums"
                    style={{
                      background: cell ? `rgba(79, 70, 229, ${0.12 + 0.75 * strength})` : "#f8fafc",
                      color: strength > 0.55 ? "white" : "#0f172a",
                    }}
                  >
                    {cell
                      ? cell.engagementRate === null
                        ? "–"
                        : formatRate(cell.engagementRate).replace("%", "")
                      : ""}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

async function downloadCsv(brandId: string, query: Record<string, string>) {
  const response = await authorizedFetch(
    `/api/brands/${brandId}/analytics?${new URLSearchParams({ ...query, format: "csv" })}`,
  );
  if (!response.ok) throw new Error("The export failed.");
  const name =
    /filename="([^"]+)"/.exec(response.headers.get("content-disposition") ?? "")?.[1] ?? "analytics.csv";
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  link.click();
  URL.revokeObjectURL(url);
}

/** /brands/{brandId}/analytics: what worked, for a period and a channel. */
export function BrandAnalytics({ brandId }: { brandId: string }) {
  const brand = useQuery(brandQueries.detail(brandId));
  const channels = useQuery({
    queryKey: ["channels", brandId],
    queryFn: async ({ signal }) => (await callApi(listChannels, { query: { brandId }, signal })).data,
  });
  const [days, setDays] = useState(30);
  const [channelId, setChannelId] = useState("");
  const [page, setPage] = useState(1);
  const [exportError, setExportError] = useState<string | null>(null);
  const timeZone = brand.data?.timeZone ?? "UTC";
  const to = zonedDayKey(new Date(), timeZone);
  const query = { from: dayMinus(to, days - 1), to, ...(channelId ? { channelId } : {}) };
  const analytics = useQuery({
    queryKey: ["brands", "analytics", brandId, query, page],
    enabled: Boolean(brand.data),
    queryFn: async ({ signal }) =>
      (
        await callApi(getBrandAnalytics, {
          params: { brandId },
          query: { ...query, page, pageSize: PAGE_SIZE },
          signal,
        })
      ).data,
    placeholderData: (previous) => previous,
  });
  const data = analytics.data;
  // The charts' points, once per answer (a new array each render would redraw every chart).
  const daily = useMemo(
    () =>
      (data?.daily ?? []).map((day) => ({
        label: shortDay(day.day),
        views: day.views,
        reach: day.reach,
        interactions: day.interactions,
        engagementRate: day.engagementRate,
        posts: day.posts,
      })),
    [data?.daily],
  );
  const { followerChannels, followers } = useMemo(() => {
    // A row per channel and day: grouped by day in one pass, the days in order.
    const byDay = new Map<string, Record<string, number>>();
    for (const row of data?.followers ?? []) {
      const day = byDay.get(row.day) ?? {};
      day[row.channelId] = row.count;
      byDay.set(row.day, day);
    }
    return {
      followerChannels: [...new Set((data?.followers ?? []).map((row) => row.channelId))],
      followers: [...byDay.keys()].sort().map((day) => ({ label: shortDay(day), ...byDay.get(day) })),
    };
  }, [data?.followers]);
  const channelName = (id: string) => {
    const channel = channels.data?.items.find((item) => item.channelId === id);
    return channel ? `${CHANNEL_NAMES[channel.channel]} · ${channel.accountName}` : id;
  };
  const pages = data ? Math.max(1, Math.ceil(data.topPosts.total / PAGE_SIZE)) : 1;

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <p className="text-sm text-slate-600">
            <Link href={`/brands/${brandId}`} className="text-brand-600 hover:underline">
              {brand.data?.name ?? "Brand"}
            </Link>
          </p>
          <h1 className="text-2xl font-semibold tracking-tight">Analytics</h1>
        </div>
        <div className="flex flex-wrap items-end gap-3">
          <label className="text-sm">
            <span className="block font-medium text-slate-700">Period</span>
            <select
              className="mt-1 rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm"
              value={days}
              onChange={(event) => {
                setDays(Number(event.target.value));
                setPage(1);
              }}
            >
              {PERIODS.map((period) => (
                <option key={period.days} value={period.days}>
                  {period.label}
                </option>
              ))}
            </select>
          </label>
          <label className="text-sm">
            <span className="block font-medium text-slate-700">Channel</span>
            <select
              className="mt-1 max-w-[14rem] rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm"
              value={channelId}
              onChange={(event) => {
                setChannelId(event.target.value);
                setPage(1);
              }}
            >
              <option value="">All channels</option>
              {(channels.data?.items ?? []).map((channel) => (
                <option key={channel.channelId} value={channel.channelId}>
                  {CHANNEL_NAMES[channel.channel]} · {channel.accountName}
                </option>
              ))}
            </select>
          </label>
          <Button
            variant="secondary"
            disabled={!data}
            onClick={() => {
              setExportError(null);
              downloadCsv(brandId, query).catch((error: Error) => setExportError(error.message));
            }}
          >
            Export CSV
          </Button>
        </div>
      </div>
      {exportError && <ErrorNotice message={exportError} />}

      {brand.isError || analytics.isError ? (
        <ErrorNotice message="The analytics could not be loaded." onRetry={() => void analytics.refetch()} />
      ) : !data ? (
        <p role="status" className="text-sm text-slate-600">
          Loading analytics…
        </p>
      ) : data.totals.posts === 0 ? (
        <Card>
          <h2 className="text-lg font-semibold">No published posts yet</h2>
          <p className="mt-1 text-sm text-slate-600">
            Nothing was published in this period{channelId ? " on this channel" : ""}. Results appear within
            an hour of publishing.
          </p>
        </Card>
      ) : (
        <>
          <section aria-labelledby="totals-heading" className="space-y-3">
            <h2 id="totals-heading" className="text-lg font-semibold">
              {data.from} to {data.to}
            </h2>
            <Totals totals={data.totals} previous={data.previous} />
          </section>

          <Card className="grid gap-6 md:grid-cols-2">
            <ChartBlock
              title="Views per publishing day"
              data={daily}
              series={[{ key: "views", name: "Views", color: COLORS[0] }]}
            />
            <ChartBlock
              title="Reach per publishing day"
              data={daily}
              series={[{ key: "reach", name: "Reach", color: COLORS[1] }]}
            />
            <ChartBlock
              title="Interactions per publishing day"
              data={daily}
              series={[{ key: "interactions", name: "Interactions", color: COLORS[2] }]}
            />
            <ChartBlock
              title="Engagement rate per publishing day"
              data={daily}
              series={[{ key: "engagementRate", name: "Engagement rate", color: COLORS[3] }]}
              percent
            />
          </Card>

          <Card className="space-y-3">
            <h2 className="text-lg font-semibold">Top posts</h2>
            <ol className="divide-y divide-slate-100" data-testid="top-posts">
              {data.topPosts.items.map((post) => (
                <li key={post.publicationId} className="flex gap-3 py-3">
                  {post.thumbnailUrl ? (
                    // biome-ignore lint/performance/noImgElement: a signed media URL, not an optimisable asset.
                    <img
                      src={post.thumbnailUrl}
                      alt=""
                      className="h-14 w-14 shrink-0 rounded-lg object-cover"
                    />
                  ) : (
                    <div aria-hidden="true" className="h-14 w-14 shrink-0 rounded-lg bg-slate-100" />
                  )}
                  <div className="min-w-0 flex-1">
                    <Link
                      href={`/studio/${post.postId}`}
                      className="line-clamp-2 text-sm font-medium text-slate-900 hover:underline"
                    >
                      {post.caption || "Untitled post"}
                    </Link>
                    <p className="mt-1 text-xs text-slate-600">
                      {CHANNEL_NAMES[post.channel]} ·{" "}
                      {new Date(post.publishedAt).toLocaleDateString("en-GB", { timeZone })}
                    </p>
                    <p className="mt-1 flex flex-wrap gap-x-3 text-xs tabular-nums text-slate-700">
                      <span>Reach {formatCount(post.reach)}</span>
                      <span>Interactions {formatCount(post.interactions)}</span>
                      <span>Rate {formatRate(post.engagementRate)}</span>
                    </p>
                  </div>
                </li>
              ))}
            </ol>
            {pages > 1 && (
              <nav aria-label="Top posts pages" className="flex items-center gap-3 text-sm">
                <Button variant="secondary" disabled={page <= 1} onClick={() => setPage(page - 1)}>
                  Previous
                </Button>
                <span>
                  Page {page} of {pages}
                </span>
                <Button variant="secondary" disabled={page >= pages} onClick={() => setPage(page + 1)}>
                  Next
                </Button>
              </nav>
            )}
          </Card>

          <Card className="space-y-3">
            <h2 className="text-lg font-semibold">When posts do best</h2>
            <Heatmap cells={data.heatmap} timeZone={data.timeZone} />
          </Card>

          <Card className="space-y-3">
            <h2 className="text-lg font-semibold">Followers</h2>
            {followers.length ? (
              <ChartBlock
                title="Subscribers and followers per day"
                data={followers}
                series={followerChannels.map((id, index) => ({
                  key: id,
                  name: channelName(id),
                  color: COLORS[index % COLORS.length],
                }))}
              />
            ) : (
              <p className="text-sm text-slate-600">
                Follower counts are read once a day; none yet for this period.
              </p>
            )}
          </Card>
        </>
      )}

      <Card className="space-y-2">
        <h2 className="text-lg font-semibold">Why some numbers are missing</h2>
        <ul className="list-disc space-y-1 pl-5 text-sm text-slate-700">
          <li>A dash is a number the platform has not given: it is never counted as 0.</li>
          <li>Telegram&apos;s Bot API gives no views or reach, only reactions and subscribers.</li>
          <li>Instagram can take up to 48 hours to report a post&apos;s insights.</li>
          <li>LinkedIn gives impressions and reach only to apps it has granted post analytics.</li>
          <li>Engagement rate is interactions ÷ reach, over posts that report both.</li>
          {(data?.missing ?? []).map((row) => (
            <li key={`${row.channel}-${row.metric}-${row.reason}`}>
              {CHANNEL_NAMES[row.channel]}, {row.metric} ({row.state}, {row.publications} post
              {row.publications === 1 ? "" : "s"}): {row.reason}
            </li>
          ))}
        </ul>
      </Card>
    </div>
  );
}
