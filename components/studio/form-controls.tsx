import type { SelectHTMLAttributes, TextareaHTMLAttributes } from "react";

const CONTROL =
  "block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm outline-none focus:border-brand-500 focus:ring-2 focus:ring-brand-500/30 disabled:bg-slate-50";

export function PostSelect({ className = "", ...props }: SelectHTMLAttributes<HTMLSelectElement>) {
  return <select {...props} className={`${CONTROL} ${className}`} />;
}

export function PostTextArea({ className = "", ...props }: TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return <textarea {...props} className={`${CONTROL} ${className}`} />;
}

/** "1,234 / 2,200", red past the limit. */
export function CharacterCount({
  length,
  limit,
  testId,
}: {
  length: number;
  limit: number;
  testId?: string;
}) {
  const over = length > limit;
  return (
    <span
      data-testid={testId}
      aria-live="polite"
      className={`text-xs tabular-nums ${over ? "font-semibold text-red-600" : "text-slate-500"}`}
    >
      {length.toLocaleString("en")} / {limit.toLocaleString("en")}
      {over ? ` · ${(length - limit).toLocaleString("en")} over` : ""}
    </span>
  );
}

export const CHANNEL_LABELS = { instagram: "Instagram", linkedin: "LinkedIn", telegram: "Telegram" } as const;

export const GOAL_LABELS = {
  awareness: "Awareness",
  engagement: "Engagement",
  traffic: "Traffic",
  leads: "Leads",
  sales: "Sales",
  announcement: "Announcement",
} as const;
