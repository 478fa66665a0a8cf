"use client";

import Link from "next/link";
import { useMemo, useState } from "react";
import { CARD_OWNERS, CARD_STATUSES } from "@/lib/docs/card-enums";
import { MethodBadge, OwnerPill, StatusPill } from "./method-badge";

export type CardSummary = {
  id: string;
  title: string;
  method: string;
  endpoint: string;
  status: string;
  owner: string;
  description: string;
  /** The resource group (Auth, Brands, Posts, Video, System). */
  group: string;
};

function FilterGroup({
  label,
  options,
  value,
  onChange,
}: {
  label: string;
  options: readonly string[];
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <fieldset className="flex items-center gap-1 text-sm">
      <legend className="sr-only">{label}</legend>
      <span className="mr-1 text-slate-500">{label}</span>
      {["all", ...options].map((option) => (
        <button
          key={option}
          type="button"
          aria-pressed={value === option}
          onClick={() => onChange(option)}
          className={`rounded-md px-2.5 py-1 ${
            value === option
              ? "bg-slate-900 text-white"
              : "bg-white text-slate-600 ring-1 ring-slate-200 hover:bg-slate-100"
          }`}
        >
          {option}
        </button>
      ))}
    </fieldset>
  );
}

/** The card list with search and filters; everything is in the page, so filtering is instant. */
export function CardIndex({ cards }: { cards: CardSummary[] }) {
  const [query, setQuery] = useState("");
  const [status, setStatus] = useState("all");
  const [owner, setOwner] = useState("all");

  const visible = useMemo(() => {
    const words = query.toLowerCase().split(/\s+/).filter(Boolean);
    return cards.filter((card) => {
      const haystack =
        `${card.id} ${card.title} ${card.method} ${card.endpoint} ${card.description}`.toLowerCase();
      return (
        (status === "all" || card.status === status) &&
        (owner === "all" || card.owner === owner) &&
        words.every((word) => haystack.includes(word))
      );
    });
  }, [cards, query, status, owner]);

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-x-6 gap-y-3 rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
        <input
          type="search"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
          placeholder="Search by name, path or description"
          aria-label="Search cards"
          className="w-full min-w-0 flex-1 rounded-lg sm:min-w-64 border border-slate-300 px-3 py-1.5 text-sm focus:border-brand-500 focus:outline-none"
        />
        <FilterGroup label="Status" options={CARD_STATUSES} value={status} onChange={setStatus} />
        <FilterGroup label="Owner" options={CARD_OWNERS} value={owner} onChange={setOwner} />
      </div>

      <p className="text-sm text-slate-500" aria-live="polite">
        {visible.length} of {cards.length} operations
      </p>

      {visible.length === 0 ? (
        <div className="rounded-xl border border-dashed border-slate-300 bg-white p-10 text-center">
          <p className="font-medium">No card matches these filters.</p>
          <button
            type="button"
            onClick={() => {
              setQuery("");
              setStatus("all");
              setOwner("all");
            }}
            className="mt-3 text-sm font-medium text-brand-600 hover:underline"
          >
            Clear search and filters
          </button>
        </div>
      ) : (
        <div className="space-y-8">
          {[...new Set(visible.map((card) => card.group))].map((group) => (
            <section key={group} aria-labelledby={`group-${group}`}>
              <h2 id={`group-${group}`} className="mb-2 text-lg font-semibold text-slate-900">
                {group}
              </h2>
              <ul className="divide-y divide-slate-200 overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm">
                {visible
                  .filter((card) => card.group === group)
                  .map((card) => (
                    <li key={card.id} data-testid="card-row" data-card-id={card.id}>
                      <Link
                        href={`/api-docs/${card.id}`}
                        className="flex flex-wrap items-start gap-x-4 gap-y-2 px-4 py-3 hover:bg-slate-50 focus:bg-slate-50 sm:flex-nowrap sm:px-5 sm:py-4"
                      >
                        <MethodBadge method={card.method} />
                        <div className="min-w-0 flex-1 basis-56">
                          <div className="flex flex-wrap items-baseline gap-x-3">
                            <span className="font-medium text-slate-900">{card.title}</span>
                            <code className="break-all font-mono text-sm text-slate-500">
                              {card.endpoint}
                            </code>
                          </div>
                          <p className="mt-1 text-sm text-slate-600">{card.description}</p>
                        </div>
                        <div className="flex shrink-0 gap-2">
                          <StatusPill status={card.status} />
                          <OwnerPill owner={card.owner} />
                        </div>
                      </Link>
                    </li>
                  ))}
              </ul>
            </section>
          ))}
        </div>
      )}
    </div>
  );
}
