"use client";

import { useQuery } from "@tanstack/react-query";
import { healthQuery } from "@/lib/client/queries";

/** Calls GET /api/health from the browser, so the page shows whether the backend really answers. */
export function BackendStatus() {
  const { data, isPending, isError } = useQuery(healthQuery());
  const ok = data?.status === "ok";
  const label = isPending
    ? "Checking backend…"
    : isError || !data
      ? "Backend unreachable"
      : `Backend ${data.status}`;
  return (
    <div
      data-testid="backend-status"
      data-status={isPending ? "pending" : (data?.status ?? "error")}
      className="inline-flex items-center gap-2 rounded-full border border-slate-200 bg-white px-3 py-1 text-sm"
    >
      <span
        className={`size-2 rounded-full ${isPending ? "bg-slate-300" : ok ? "bg-emerald-500" : "bg-red-500"}`}
      />
      <span>{label}</span>
      {data && (
        <span className="text-slate-500">
          · database {data.checks.database} · queue {data.checks.queue} · AI {data.checks.ai} · video{" "}
          {data.checks.video} · v{data.version}
        </span>
      )}
    </div>
  );
}
