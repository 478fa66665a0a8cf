const METHOD_COLORS: Record<string, string> = {
  GET: "bg-emerald-50 text-emerald-700 ring-emerald-200",
  POST: "bg-brand-50 text-brand-700 ring-brand-100",
  PATCH: "bg-amber-50 text-amber-800 ring-amber-200",
  DELETE: "bg-red-50 text-red-700 ring-red-200",
};

export function MethodBadge({ method, compact = false }: { method: string; compact?: boolean }) {
  return (
    <span
      data-testid="method-badge"
      className={`inline-flex shrink-0 justify-center rounded-md font-mono font-semibold ring-1 ring-inset ${compact ? "w-12 px-1 text-[10px]" : "w-16 px-2 py-0.5 text-xs"} ${METHOD_COLORS[method] ?? "bg-slate-100 text-slate-600 ring-slate-200"}`}
    >
      {method}
    </span>
  );
}

const STATUS_COLORS: Record<string, string> = {
  ready: "bg-emerald-50 text-emerald-700",
  draft: "bg-amber-50 text-amber-800",
  deprecated: "bg-slate-200 text-slate-600 line-through",
};

export function StatusPill({ status }: { status: string }) {
  return (
    <span
      className={`rounded-full px-2.5 py-0.5 text-xs font-medium ${STATUS_COLORS[status] ?? "bg-amber-100 text-amber-900"}`}
    >
      {status}
    </span>
  );
}

/** The card's `owner`, in words: the team that answers questions about the operation. */
export function OwnerPill({ owner }: { owner: string }) {
  return (
    <span
      title="The team that maintains this operation"
      className="rounded-full bg-slate-100 px-2.5 py-0.5 text-xs font-medium text-slate-700"
    >
      {owner === "TODO" ? "Maintainer not set" : `Maintained by the ${owner} team`}
    </span>
  );
}

/** How a field the card's author does not know yet (`TODO`) looks wherever it appears. */
export function TodoMark() {
  return (
    <span className="rounded bg-amber-100 px-1.5 py-0.5 font-mono text-xs font-semibold text-amber-900">
      TODO
    </span>
  );
}
