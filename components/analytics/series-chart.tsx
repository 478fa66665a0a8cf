"use client";

import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";

export type ChartSeries = { key: string; name: string; color: string };
export type ChartPoint = { label: string } & Record<string, number | string | null>;

/**
 * A small line chart (recharts), loaded on its own (next/dynamic) so pages without charts never load it.
 * Hidden from assistive technology: every chart is shown beside a table of the same numbers.
 */
export default function SeriesChart({
  data,
  series,
  height,
  percent = false,
}: {
  data: ChartPoint[];
  series: ChartSeries[];
  height: number;
  percent?: boolean;
}) {
  return (
    <div aria-hidden="true" style={{ width: "100%", height }}>
      <ResponsiveContainer>
        <LineChart data={data} accessibilityLayer={false} margin={{ top: 8, right: 12, left: 0, bottom: 0 }}>
          <CartesianGrid stroke="#e2e8f0" strokeDasharray="3 3" />
          <XAxis dataKey="label" tick={{ fontSize: 11, fill: "#475569" }} minTickGap={24} />
          <YAxis
            tick={{ fontSize: 11, fill: "#475569" }}
            width={44}
            allowDecimals={percent}
            tickFormatter={(value: number) =>
              percent ? `${Math.round(value * 1000) / 10}%` : value.toLocaleString()
            }
          />
          <Tooltip
            formatter={(value) =>
              typeof value === "number" && percent ? `${Math.round(value * 1000) / 10}%` : String(value)
            }
          />
          {series.map((line) => (
            <Line
              key={line.key}
              type="monotone"
              dataKey={line.key}
              name={line.name}
              stroke={line.color}
              strokeWidth={2}
              dot={data.filter((point) => typeof point[line.key] === "number").length <= 31}
              connectNulls
              isAnimationActive={false}
            />
          ))}
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}
