"use client";

import { useEffect, useRef, useState } from "react";
import { compactPlayerSize, VideoPlayer } from "@/components/video/video-player";
import { ROUTES } from "@/lib/contracts/routes";
import type { VideoAspectRatio } from "@/lib/contracts/video";
import type { LiveCheck } from "@/lib/docs/check-live-response";
import { fillPath } from "@/lib/docs/placeholders";
import { headerOf, sendRequest } from "./send-request";
import { VerdictBanner } from "./verdict-banner";

const TERMINAL = new Set(["succeeded", "failed", "canceled"]);
const DEFAULT_INTERVAL_SECONDS = 2;

type JobView = {
  status?: string;
  progress?: number;
  videoUrl?: string | null;
  thumbnailUrl?: string | null;
  captionsUrl?: string | null;
  captions?: boolean;
  aspectRatio?: VideoAspectRatio;
  error?: { message?: string } | null;
};

type PollState = {
  job: JobView;
  httpStatus: number;
  check: LiveCheck;
  polls: number;
  nextInSeconds?: number;
};

/** Polls a video job at its Retry-After interval, as a client should, and plays the video when it is done. */
export function JobPoller({ jobId }: { jobId: string }) {
  const statusOperation = ROUTES.getVideoJobStatus;
  const [state, setState] = useState<PollState | null>(null);
  const [polling, setPolling] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const generation = useRef(0);

  useEffect(() => () => void generation.current++, []);

  const stop = () => {
    generation.current++;
    setPolling(false);
  };

  const start = async () => {
    const run = ++generation.current;
    setPolling(true);
    setFailure(null);
    for (let polls = 1; run === generation.current; polls++) {
      try {
        const checker = import("@/lib/docs/check-live-response");
        const response = await sendRequest({ method: "GET", url: fillPath(statusOperation.path, { jobId }) });
        const { checkLiveResponse } = await checker;
        if (run !== generation.current) return;
        const job = (response.body ?? {}) as JobView;
        const retryAfter = Number(headerOf(response, "retry-after") ?? DEFAULT_INTERVAL_SECONDS);
        const done = response.status !== 200 || !job.status || TERMINAL.has(job.status);
        setState({
          job,
          polls,
          httpStatus: response.status,
          check: checkLiveResponse(statusOperation.id, response.status, response.body),
          nextInSeconds: done ? undefined : retryAfter,
        });
        if (done) break;
        await new Promise((resolve) => setTimeout(resolve, Math.max(1, retryAfter) * 1000));
      } catch (error) {
        setFailure(`The status request failed: ${(error as Error).message}`);
        break;
      }
    }
    if (run === generation.current) setPolling(false);
  };

  const progress = Math.max(0, Math.min(100, state?.job.progress ?? 0));
  return (
    <section
      data-testid="job-poller"
      data-job-status={state?.job.status ?? "unknown"}
      className="space-y-3 rounded-lg border border-slate-200 bg-slate-50 p-4"
    >
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="text-sm">
          <span className="font-medium">Video job</span>{" "}
          <code className="font-mono text-slate-600">{jobId}</code>
        </div>
        {polling ? (
          <button
            type="button"
            onClick={stop}
            className="rounded-md border border-slate-300 bg-white px-3 py-1 text-sm hover:bg-slate-100"
          >
            Stop polling
          </button>
        ) : (
          <button
            type="button"
            onClick={start}
            className="rounded-md bg-slate-900 px-3 py-1 text-sm font-medium text-white hover:bg-slate-700"
          >
            {state ? "Poll again" : "Poll this job until it is done"}
          </button>
        )}
      </div>
      {state && (
        <>
          <div className="flex items-center gap-3 text-sm">
            <span data-testid="job-status" className="font-medium">
              {state.job.status ?? `HTTP ${state.httpStatus}`}
            </span>
            <div className="h-2 flex-1 overflow-hidden rounded-full bg-slate-200">
              <div
                className="h-full rounded-full bg-brand-600 transition-all"
                style={{ width: `${progress}%` }}
              />
            </div>
            <span className="w-10 text-right tabular-nums text-slate-600">{progress}%</span>
          </div>
          <p className="text-xs text-slate-500">
            {state.polls} {state.polls === 1 ? "poll" : "polls"}
            {state.nextInSeconds !== undefined && ` · next in ${state.nextInSeconds} s (Retry-After)`}
          </p>
          <VerdictBanner check={state.check} />
          {state.job.status === "failed" && state.job.error?.message && (
            <p className="text-sm text-red-700">{state.job.error.message}</p>
          )}
          {state.job.status === "succeeded" && state.job.videoUrl && (
            <VideoPlayer
              url={state.job.videoUrl}
              job={state.job}
              className={`block rounded-lg ${compactPlayerSize(state.job.aspectRatio)}`}
              testId="job-video"
            />
          )}
        </>
      )}
      {failure && <p className="text-sm text-red-700">{failure}</p>}
    </section>
  );
}
