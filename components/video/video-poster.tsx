import type { VideoJobView } from "@/lib/contracts/video";

type PosterJob = Pick<VideoJobView, "status" | "progress" | "thumbnailUrl" | "aspectRatio" | "error">;

function placeholder(job: PosterJob) {
  switch (job.status) {
    case "queued":
      return { mark: "…", title: "Queued", note: "Starts in a moment", tone: "from-slate-700" };
    case "running":
      return {
        mark: `${job.progress}%`,
        title: "Rendering",
        note: "Watch it on the job page",
        tone: "from-slate-700",
      };
    case "canceled":
      return { mark: "⊘", title: "Canceled", note: "Nothing was counted", tone: "from-slate-600" };
    case "failed":
      return {
        mark: "!",
        title: "Failed",
        note: job.error?.retryable ? "You can try again" : "See the job for why",
        tone: "from-rose-800",
      };
    default:
      return { mark: "▶", title: "No poster", note: "", tone: "from-slate-700" };
  }
}

/**
 * A job's picture: its poster once it has one, else a placeholder in the video's own shape that says
 * where the job is (queued, rendering, canceled, failed), never a broken image. `fit` keeps a tall
 * poster whole inside a wide tile.
 */
export function VideoPoster({ job, className = "" }: { job: PosterJob; className?: string }) {
  if (job.thumbnailUrl) {
    return (
      // biome-ignore lint/performance/noImgElement: a poster from media storage, not a static asset.
      <img src={job.thumbnailUrl} alt="" className={`size-full bg-slate-900 object-contain ${className}`} />
    );
  }
  const { mark, title, note, tone } = placeholder(job);
  return (
    <div
      data-testid="video-poster-placeholder"
      data-status={job.status}
      className={`grid size-full place-items-center bg-gradient-to-br ${tone} to-slate-950 p-4 text-center text-white ${className}`}
    >
      <div className="space-y-1">
        <span aria-hidden="true" className="block text-3xl font-semibold leading-none">
          {mark}
        </span>
        <span className="block text-sm font-semibold">{title}</span>
        {note && <span className="block text-xs text-slate-200">{note}</span>}
      </div>
    </div>
  );
}
