import type { VideoJobStatus } from "@/lib/contracts/video";

const LOOK: Record<VideoJobStatus, { label: string; className: string }> = {
  queued: { label: "Queued", className: "bg-slate-100 text-slate-700" },
  running: { label: "Rendering", className: "bg-brand-50 text-brand-700" },
  succeeded: { label: "Ready", className: "bg-emerald-50 text-emerald-700" },
  failed: { label: "Failed", className: "bg-red-50 text-red-700" },
  canceled: { label: "Canceled", className: "bg-amber-50 text-amber-800" },
};

export function VideoStatusBadge({ status }: { status: VideoJobStatus }) {
  const { label, className } = LOOK[status];
  return (
    <span
      data-testid="video-status"
      data-status={status}
      className={`inline-flex items-center gap-1.5 rounded-full px-2.5 py-0.5 text-xs font-medium ${className}`}
    >
      {(status === "queued" || status === "running") && (
        <span className="size-1.5 animate-pulse rounded-full bg-current" />
      )}
      {label}
    </span>
  );
}

/** 75 → "1:15". */
export function formatDuration(seconds: number) {
  const whole = Math.max(0, Math.round(seconds));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}

/** Seconds left, as a person would say it. */
export function formatTimeLeft(seconds: number | null) {
  if (seconds === null) return "";
  if (seconds <= 1) return "Almost done";
  if (seconds < 60) return `About ${seconds} s left`;
  return `About ${Math.ceil(seconds / 60)} min left`;
}
