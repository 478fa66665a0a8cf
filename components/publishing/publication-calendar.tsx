"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { Button, ErrorNotice } from "@/components/ui/primitives";
import { callApi } from "@/lib/client/api-client";
import { listPublications } from "@/lib/client/operations";
import { brandQueries } from "@/lib/client/queries";
import type { PublicationView } from "@/lib/contracts/publishing";
import { STATUS_STYLES } from "./publish-panel";

const DAY_MS = 86_400_000;
const WEEKDAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];

/** Monday 00:00 (local) of the week that holds `date`. */
function weekStart(date: Date) {
  const start = new Date(date.getFullYear(), date.getMonth(), date.getDate());
  start.setDate(start.getDate() - ((start.getDay() + 6) % 7));
  return start;
}

function range(view: "month" | "week", anchor: Date) {
  if (view === "week") {
    const from = weekStart(anchor);
    return { from, days: 7 };
  }
  const first = new Date(anchor.getFullYear(), anchor.getMonth(), 1);
  const from = weekStart(first);
  const last = new Date(anchor.getFullYear(), anchor.getMonth() + 1, 0);
  const days = Math.round((weekStart(last).getTime() - from.getTime()) / DAY_MS) + 7;
  return { from, days };
}

const dayKey = (date: Date) => `${date.getFullYear()}-${date.getMonth()}-${date.getDate()}`;

export function PublicationCalendar() {
  const brands = useQuery({ ...brandQueries.list(), select: (data) => data.items });
  const [brandId, setBrandId] = useState("");
  const [view, setView] = useState<"month" | "week">("month");
  const [anchor, setAnchor] = useState(() => new Date());
  const brand = brandId || brands.data?.[0]?.brandId || "";
  const { from, days } = range(view, anchor);
  const to = new Date(from.getTime() + days * DAY_MS);
  const publications = useQuery({
    queryKey: ["publications", "calendar", brand, from.toISOString(), days],
    enabled: Boolean(brand),
    refetchInterval: 5000,
    queryFn: async ({ signal }) =>
      (
        await callApi(listPublications, {
          query: { brandId: brand, from: from.toISOString(), to: to.toISOString() },
          signal,
        })
      ).data.items,
  });
  const byDay = new Map<string, PublicationView[]>();
  for (const publication of publications.data ?? []) {
    const key = dayKey(new Date(publication.publishAt));
    byDay.set(key, [...(byDay.get(key) ?? []), publication]);
  }
  const move = (step: number) => {
    const next = new Date(anchor);
    if (view === "week") next.setDate(next.getDate() + 7 * step);
    else next.setMonth(next.getMonth() + step, 1);
    setAnchor(next);
  };
  const title =
    view === "month"
      ? anchor.toLocaleDateString(undefined, { month: "long", year: "numeric" })
      : `Week of ${from.toLocaleDateString()}`;

  if (brands.isPending) return <div aria-busy className="h-96 animate-pulse rounded-xl bg-slate-100" />;
  if (brands.error) return <ErrorNotice message={brands.error.message} onRetry={() => brands.refetch()} />;
  if (!brands.data?.length) {
    return (
      <p className="text-sm text-slate-600">
        No brand yet.{" "}
        <Link href="/brands/new" className="font-medium text-brand-700 underline">
          Create one
        </Link>
        .
      </p>
    );
  }
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end gap-3">
        <label className="text-sm">
          <span className="block font-medium text-slate-700">Brand</span>
          <select
            value={brand}
            onChange={(event) => setBrandId(event.target.value)}
            className="mt-1 rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm"
          >
            {brands.data.map((item) => (
              <option key={item.brandId} value={item.brandId}>
                {item.name}
              </option>
            ))}
          </select>
        </label>
        <fieldset className="flex gap-1">
          <legend className="sr-only">View</legend>
          {(["month", "week"] as const).map((option) => (
            <Button
              key={option}
              variant={view === option ? "primary" : "secondary"}
              aria-pressed={view === option}
              onClick={() => setView(option)}
            >
              {option === "month" ? "Month" : "Week"}
            </Button>
          ))}
        </fieldset>
        <div className="flex items-center gap-1">
          <Button variant="secondary" aria-label="Previous" onClick={() => move(-1)}>
            ←
          </Button>
          <Button variant="secondary" onClick={() => setAnchor(new Date())}>
            Today
          </Button>
          <Button variant="secondary" aria-label="Next" onClick={() => move(1)}>
            →
          </Button>
        </div>
        <h2 className="text-lg font-semibold" data-testid="calendar-title">
          {title}
        </h2>
      </div>
      {publications.error && (
        <ErrorNotice message={publications.error.message} onRetry={() => publications.refetch()} />
      )}
      {publications.data && publications.data.length === 0 && (
        <p className="text-sm text-slate-600" data-testid="calendar-empty">
          Nothing scheduled or published in this {view}. Publish a post from the studio.
        </p>
      )}
      <div className="overflow-x-auto">
        <div className="grid min-w-[42rem] grid-cols-7 gap-px overflow-hidden rounded-xl border border-slate-200 bg-slate-200">
          {WEEKDAYS.map((day) => (
            <div key={day} className="bg-slate-50 px-2 py-1 text-xs font-semibold text-slate-600">
              {day}
            </div>
          ))}
          {Array.from({ length: days }, (_, index) => {
            const date = new Date(from.getFullYear(), from.getMonth(), from.getDate() + index);
            const items = byDay.get(dayKey(date)) ?? [];
            const outside = view === "month" && date.getMonth() !== anchor.getMonth();
            return (
              <div
                key={date.toISOString()}
                className={`min-h-24 space-y-1 p-1.5 ${outside ? "bg-slate-50 text-slate-500" : "bg-white"}`}
              >
                <div className="text-xs font-medium">{date.getDate()}</div>
                {publications.isPending && index === 0 && (
                  <div className="h-4 animate-pulse rounded bg-slate-100" />
                )}
                {items.map((publication) => (
                  <Link
                    key={publication.publicationId}
                    href={`/studio/${publication.postId}`}
                    data-testid="calendar-item"
                    data-status={publication.status}
                    title={publication.error?.message ?? publication.permalink ?? undefined}
                    className={`block truncate rounded px-1.5 py-0.5 text-xs ring-1 ${STATUS_STYLES[publication.status]}`}
                  >
                    {new Date(publication.publishAt).toLocaleTimeString([], {
                      hour: "2-digit",
                      minute: "2-digit",
                    })}{" "}
                    {publication.status}
                  </Link>
                ))}
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}
