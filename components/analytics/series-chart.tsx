"use client";

import { scaleLinear } from "d3-scale";
import { curveMonotoneX, line } from "d3-shape";
import { type PointerEvent, useLayoutEffect, useRef, useState } from "react";

export type ChartSeries = { key: string; name: string; color: string };
export type ChartPoint = { label: string } & Record<string, number | string | null>;

/** The plot inside the chart: the Y axis's labels on the left, the X axis's below. */
const MARGIN = { top: 8, right: 12, bottom: 30, left: 44 };
const TICK = 6;
const FONT = 11;
/** Space kept between two X labels (an estimate of the labels' width, at 11 px, plus this). */
const LABEL_GAP = 24;
const AXIS = "#666";
const TEXT = "#475569";
const GRID = "#e2e8f0";

/** About four "nice" Y ticks from 0 to at least `max` (whole numbers only, unless the values have decimals). */
function yTicks(max: number, decimals: boolean) {
  const ticks = scaleLinear()
    .domain([0, max > 0 ? max : 1])
    .nice(4)
    .ticks(4);
  return decimals ? ticks : ticks.filter(Number.isInteger);
}

/** A monotone cubic through the points: no overshoot between two values. */
const monotonePath = line().curve(curveMonotoneX);

/**
 * A small line chart, drawn by React as SVG with d3's scale and curve: a grid, the axes, a monotone line per
 * series (gaps joined), dots when there are 31 points or fewer, and on hover a cursor with the point's values.
 * Loaded on its own (chart-block.tsx, next/dynamic) so pages without charts never load it. A chart draws in a
 * millisecond or two, where recharts' first draw of a page's five charts was one long task (300+ ms, measuring
 * its text through forced layouts; bench/notes.md). Hidden from assistive technology: every chart is
 * shown beside a table of the same numbers.
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
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  const [active, setActive] = useState<number | null>(null);
  useLayoutEffect(() => {
    const element = box.current;
    if (!element) return;
    setWidth(Math.floor(element.getBoundingClientRect().width));
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setWidth(Math.floor(entry.contentRect.width));
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  const left = MARGIN.left;
  const right = Math.max(left + 1, width - MARGIN.right);
  const top = MARGIN.top;
  const bottom = height - MARGIN.bottom;
  const n = data.length;
  const xAt = (index: number) => (n > 1 ? left + (index * (right - left)) / (n - 1) : (left + right) / 2);
  const format = (value: number) => (percent ? `${Math.round(value * 1000) / 10}%` : value.toLocaleString());

  // A year is 365 points a line: computing them is well under a millisecond, so it is not memoised.
  const chart = (() => {
    const values = data.flatMap((point) =>
      series.map((line) => point[line.key]).filter((value): value is number => typeof value === "number"),
    );
    const ticks = yTicks(Math.max(0, ...values), percent);
    const max = ticks[ticks.length - 1];
    const yAt = (value: number) => bottom - (value / max) * (bottom - top);
    // X labels from the last one back, each far enough from the one after it; the last stays inside.
    const labelWidth = (label: string) => label.length * FONT * 0.55;
    const shown: number[] = [];
    for (let index = n - 1; index >= 0; index--) {
      const previous = shown[shown.length - 1];
      const room =
        (labelWidth(data[index].label) + (previous === undefined ? 0 : labelWidth(data[previous].label))) / 2;
      if (previous === undefined || xAt(previous) - xAt(index) >= room + LABEL_GAP) shown.push(index);
    }
    const lines = series.map((line) => {
      const points = data.flatMap((point, index): [number, number][] => {
        const value = point[line.key];
        return typeof value === "number" ? [[xAt(index), yAt(value)]] : [];
      });
      return { ...line, points, path: monotonePath(points) ?? "", dots: points.length <= 31 };
    });
    return { ticks, yAt, shown: shown.reverse(), lines, labelWidth };
  })();

  const point = (event: PointerEvent<SVGSVGElement>) => {
    if (n === 0) return;
    const x = event.clientX - event.currentTarget.getBoundingClientRect().left;
    const index = n > 1 ? Math.round(((x - left) * (n - 1)) / (right - left)) : 0;
    setActive(Math.min(n - 1, Math.max(0, index)));
  };
  const hovered = active === null ? undefined : data[active];

  return (
    <div ref={box} aria-hidden="true" className="relative" style={{ width: "100%", height }}>
      {width > 0 && (
        <svg
          width={width}
          height={height}
          data-testid="series-chart"
          className="block touch-pan-y select-none"
          onPointerMove={point}
          onPointerDown={point}
          onPointerLeave={() => setActive(null)}
        >
          <g stroke={GRID} strokeDasharray="3 3">
            {chart.ticks.map((tick) => (
              <line key={tick} x1={left} x2={right} y1={chart.yAt(tick)} y2={chart.yAt(tick)} />
            ))}
            {chart.shown.map((index) => (
              <line key={index} x1={xAt(index)} x2={xAt(index)} y1={top} y2={bottom} />
            ))}
          </g>
          <g fontSize={FONT} fill={TEXT}>
            <line x1={left} x2={left} y1={top} y2={bottom} stroke={AXIS} />
            {chart.ticks.map((tick) => (
              <g key={tick}>
                <line x1={left - TICK} x2={left} y1={chart.yAt(tick)} y2={chart.yAt(tick)} stroke={AXIS} />
                <text x={left - TICK - 2} y={chart.yAt(tick)} dy="0.355em" textAnchor="end">
                  {format(tick)}
                </text>
              </g>
            ))}
            <line x1={left} x2={right} y1={bottom} y2={bottom} stroke={AXIS} />
            {chart.shown.map((index) => {
              const half = chart.labelWidth(data[index].label) / 2;
              return (
                <g key={index}>
                  <line x1={xAt(index)} x2={xAt(index)} y1={bottom} y2={bottom + TICK} stroke={AXIS} />
                  <text
                    x={Math.min(width - half, Math.max(half, xAt(index)))}
                    y={bottom + TICK + 2}
                    dy="0.71em"
                    textAnchor="middle"
                  >
                    {data[index].label}
                  </text>
                </g>
              );
            })}
          </g>
          {active !== null && <line x1={xAt(active)} x2={xAt(active)} y1={top} y2={bottom} stroke="#ccc" />}
          {chart.lines.map((line) => (
            <g key={line.key}>
              <path d={line.path} fill="none" stroke={line.color} strokeWidth={2} />
              {line.dots &&
                line.points.map(([x, y]) => (
                  <circle key={x} cx={x} cy={y} r={3} fill="#fff" stroke={line.color} strokeWidth={2} />
                ))}
              {hovered && typeof hovered[line.key] === "number" && active !== null && (
                <circle
                  cx={xAt(active)}
                  cy={chart.yAt(hovered[line.key] as number)}
                  r={4}
                  fill={line.color}
                  stroke="#fff"
                  strokeWidth={2}
                />
              )}
            </g>
          ))}
        </svg>
      )}
      {hovered && active !== null && (
        <div
          className="pointer-events-none absolute top-2 z-10 whitespace-nowrap border border-[#ccc] bg-white p-2.5 text-sm"
          style={xAt(active) > width / 2 ? { right: width - xAt(active) + 10 } : { left: xAt(active) + 10 }}
        >
          <p>{hovered.label}</p>
          {series.map((line) => {
            const value = hovered[line.key];
            return typeof value === "number" ? (
              <p key={line.key} className="pt-1" style={{ color: line.color }}>
                {line.name} : {format(value)}
              </p>
            ) : null;
          })}
        </div>
      )}
    </div>
  );
}
