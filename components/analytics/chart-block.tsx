"use client";

import dynamic from "next/dynamic";
import type { ChartPoint, ChartSeries } from "./series-chart";

const SeriesChart = dynamic(() => import("./series-chart"), {
  ssr: false,
  loading: () => <div className="h-full w-full animate-pulse rounded-lg bg-slate-100" />,
});

// Made once: toLocaleString makes a formatter per call, and a page shows hundreds of numbers.
const COUNT = new Intl.NumberFormat("en-US");
export const formatCount = (value: number | null | undefined) =>
  typeof value === "number" ? COUNT.format(value) : "—";
export const formatRate = (value: number | null | undefined) =>
  typeof value === "number" ? `${COUNT.format(Math.round(value * 1000) / 10)}%` : "—";

/**
 * A titled chart and, for screen readers and anyone who prefers numbers, the same data as a table behind
 * "Show as table". A missing value is a dash, never 0.
 */
export function ChartBlock({
  title,
  data,
  series,
  height = 160,
  percent = false,
}: {
  title: string;
  data: ChartPoint[];
  series: ChartSeries[];
  height?: number;
  percent?: boolean;
}) {
  const measured = data.some((point) => series.some((line) => typeof point[line.key] === "number"));
  if (!measured)
    return (
      <figure className="min-w-0 space-y-2">
        <figcaption className="text-sm font-medium text-slate-700">{title}</figcaption>
        <p className="rounded-lg bg-slate-50 px-3 py-6 text-center text-sm text-slate-600">
          No figures: these channels have not reported this (see why below).
        </p>
      </figure>
    );
  const show = (value: ChartPoint[string]) =>
    typeof value === "number" ? (percent ? formatRate(value) : formatCount(value)) : "—";
  return (
    <figure className="min-w-0 space-y-2">
      <figcaption className="text-sm font-medium text-slate-700">{title}</figcaption>
      <div className="overflow-hidden" style={{ height }}>
        <SeriesChart data={data} series={series} height={height} percent={percent} />
      </div>
      <details className="text-sm">
        <summary className="cursor-pointer text-slate-600">Show “{title}” as a table</summary>
        <div className="mt-2 max-h-64 overflow-auto">
          <table className="w-full text-left text-xs">
            <caption className="sr-only">{title}</caption>
            <thead>
              <tr>
                <th scope="col" className="py-1 pr-3 font-medium">
                  When
                </th>
                {series.map((line) => (
                  <th key={line.key} scope="col" className="py-1 pr-3 font-medium">
                    {line.name}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {data.map((point) => (
                <tr key={point.label} className="border-t border-slate-100">
                  <th scope="row" className="py-1 pr-3 font-normal">
                    {point.label}
                  </th>
                  {series.map((line) => (
                    <td key={line.key} className="py-1 pr-3 tabular-nums">
                      {show(point[line.key])}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
