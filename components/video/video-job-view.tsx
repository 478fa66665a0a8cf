"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { NotFoundNotice } from "@/components/ui/not-found-notice";
import { Button, Card, ErrorNotice } from "@/components/ui/primitives";
import { ApiClientError, callApi } from "@/lib/client/api-client";
import { cancelVideoJob, generateVideo } from "@/lib/client/operations";
import { brandQueries, queryKeys, videoJobQueries } from "@/lib/client/queries";
import { can } from "@/lib/contracts/permissions";
import { formatInZone } from "@/lib/contracts/time-zone";
import type { GenerateVideoInput, VideoJobView as VideoJob } from "@/lib/contracts/video";
import { isTerminalVideoStatus } from "@/lib/contracts/video-rules";
import { UseInPostButton } from "./use-in-post";
import { ASPECT_CLASS, ASPECT_LABEL } from "./video-aspect";
import { VideoPlayer } from "./video-player";
import { VideoPoster } from "./video-poster";
import { formatDuration, formatTimeLeft, VideoStatusBadge } from "./video-status-badge";

const STEPS = [
  { label: "Queued", done: (job: VideoJob) => job.status !== "queued" },
  { label: "Rendering", done: (job: VideoJob) => job.status === "succeeded" },
  { label: "Ready", done: (job: VideoJob) => job.status === "succeeded" },
];

function ProgressPanel({ job }: { job: VideoJob }) {
  return (
    <div className="space-y-3">
      <ol className="flex items-center gap-2 text-xs font-medium text-slate-500">
        {STEPS.map((step, index) => {
          const current = !step.done(job) && (index === 0 || STEPS[index - 1].done(job));
          return (
            <li key={step.label} className="flex items-center gap-2">
              {index > 0 && <span className="h-px w-6 bg-slate-300" />}
              <span
                className={
                  step.done(job) ? "text-emerald-700" : current ? "text-brand-700" : "text-slate-400"
                }
              >
                {step.done(job) ? "✓ " : ""}
                {step.label}
              </span>
            </li>
          );
        })}
      </ol>
      <div
        role="progressbar"
        aria-label="Render progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={job.progress}
        data-testid="video-progress"
        className="h-3 overflow-hidden rounded-full bg-slate-100"
      >
        <div
          className="h-full rounded-full bg-brand-600 transition-[width] duration-700 ease-out"
          style={{ width: `${job.progress}%` }}
        />
      </div>
      <div className="flex justify-between text-sm text-slate-600">
        <span data-testid="video-progress-label">{job.progress}%</span>
        <span data-testid="video-time-left">
          {job.status === "queued" ? "Waiting for a free renderer…" : formatTimeLeft(job.estimatedSeconds)}
        </span>
      </div>
    </div>
  );
}

/** The same request again, for Retry on a failed or canceled job. */
/** The player's size per shape: a tall reel is held to the screen's height instead of the card's width. */
const PLAYER_SIZE: Record<VideoJob["aspectRatio"], string> = {
  // Sized by width (at most what fits 70 % of the viewport's height), so a narrow screen keeps the shape.
  "9:16": "w-[min(100%,calc(min(70vh,640px)*9/16))]",
  "4:5": "w-[min(100%,calc(min(70vh,560px)*4/5))]",
  "1:1": "w-full max-w-lg",
  "16:9": "w-full",
};

/** A poster placeholder (canceled, failed) stays small: it only says what happened, in the video's shape. */
const PLACEHOLDER_SIZE: Record<VideoJob["aspectRatio"], string> = {
  "9:16": "w-full max-w-[10rem]",
  "4:5": "w-full max-w-[12rem]",
  "1:1": "w-full max-w-[14rem]",
  "16:9": "w-full max-w-sm",
};

function sameRequest(job: VideoJob): GenerateVideoInput {
  return {
    brandId: job.brandId,
    mode: job.mode,
    aspectRatio: job.aspectRatio,
    ...(job.postId ? { postId: job.postId } : { script: job.script }),
    brief: job.brief ?? undefined,
    referenceVideoId: job.referenceVideoId ?? undefined,
    captions: job.captions,
  };
}

export function VideoJobView({ jobId }: { jobId: string }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const polled = useQuery(videoJobQueries.detail(jobId, queryClient));
  const brands = useQuery({ ...brandQueries.list(), select: (list) => list.items });
  const job = polled.data?.job;

  const cancel = useMutation({
    mutationFn: async () => (await callApi(cancelVideoJob, { params: { jobId } })).data,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.videoJobs.detail(jobId) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.videoJobs.list() });
    },
  });
  const retry = useMutation({
    mutationFn: async (request: GenerateVideoInput) => (await callApi(generateVideo, { body: request })).data,
    onSuccess: (created) => router.push(`/videos/${created.jobId}`),
  });

  if (polled.isPending) {
    return <p className="text-sm text-slate-500">Loading the video job…</p>;
  }
  if (!job) {
    const error = polled.error;
    const notFound = error instanceof ApiClientError && error.status === 404;
    return (
      <NotFoundNotice
        title={notFound ? "Video not found" : undefined}
        message={
          notFound
            ? "There is no such video job, or it belongs to a brand you are not in."
            : (error?.message ?? "The job could not be loaded.")
        }
        onRetry={notFound ? undefined : () => polled.refetch()}
        href="/videos"
        linkLabel="Back to your videos"
      />
    );
  }

  const retryError = retry.error instanceof ApiClientError ? retry.error : null;
  const role = brands.data?.find((brand) => brand.brandId === job.brandId)?.role;
  // Until the role is known, nothing is held back: the server checks every action anyway.
  const mayCancel = !role || can(role, "video.cancel");
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="space-y-1">
          <Link href="/videos" className="text-sm text-brand-600 hover:underline">
            ← All videos
          </Link>
          <h1 className="text-2xl font-semibold tracking-tight">
            {job.postId ? "Video from a post" : "Video from a script"}
          </h1>
          <p className="text-sm text-slate-600">
            {job.mode === "avatar" ? "Avatar video" : "Regular video"} · {ASPECT_LABEL[job.aspectRatio]} ·
            created{" "}
            {formatInZone(
              job.createdAt,
              brands.data?.find((brand) => brand.brandId === job.brandId)?.timeZone ?? "UTC",
            )}
            {job.durationSeconds !== null && ` · ${formatDuration(job.durationSeconds)} long`}
            {job.voice && <span data-testid="video-voice"> · voice {job.voice}</span>}
          </p>
        </div>
        <VideoStatusBadge status={job.status} />
      </div>

      <Card className="space-y-5">
        {!isTerminalVideoStatus(job.status) && (
          <>
            <ProgressPanel job={job} />
            <div className="flex items-center gap-3">
              <Button
                variant="danger"
                disabled={cancel.isPending || !mayCancel}
                onClick={() => {
                  if (window.confirm("Cancel this video? Its render stops now.")) cancel.mutate();
                }}
              >
                {cancel.isPending ? "Canceling…" : "Cancel"}
              </Button>
              <span className="text-xs text-slate-500">
                A canceled video does not count against the monthly quota.
              </span>
            </div>
          </>
        )}
        {job.status === "succeeded" && job.videoUrl && (
          <div className="space-y-4">
            {job.warnings.length > 0 && (
              <div
                role="status"
                data-testid="video-warnings"
                className="rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900"
              >
                <p className="font-medium">The video was made, but not everything went in:</p>
                <ul className="mt-1 list-disc space-y-1 pl-5">
                  {job.warnings.map((warning) => (
                    <li key={warning}>{warning}</li>
                  ))}
                </ul>
              </div>
            )}
            <VideoPlayer
              url={job.videoUrl}
              job={job}
              className={`${PLAYER_SIZE[job.aspectRatio]} mx-auto rounded-lg`}
              testId="video-player"
            />
            <div className="flex flex-wrap items-center gap-3">
              {job.postId && <UseInPostButton postId={job.postId} videoUrl={job.videoUrl} />}
              <a
                href={job.videoUrl}
                download
                className="rounded-lg border border-slate-300 bg-white px-4 py-2 text-sm font-medium text-slate-700 shadow-sm hover:bg-slate-100"
              >
                Download MP4
              </a>
              {job.captionsUrl && (
                <a
                  href={job.captionsUrl}
                  download="captions.vtt"
                  className="rounded-lg border border-slate-300 bg-white px-4 py-2 text-sm font-medium text-slate-700 shadow-sm hover:bg-slate-100"
                >
                  Download captions (.vtt)
                </a>
              )}
              <Link href="/videos/new" className="text-sm font-medium text-brand-600 hover:underline">
                Make another video
              </Link>
            </div>
          </div>
        )}
        {(job.status === "failed" || job.status === "canceled") && (
          <div
            className={`${ASPECT_CLASS[job.aspectRatio]} ${PLACEHOLDER_SIZE[job.aspectRatio]} mx-auto overflow-hidden rounded-lg`}
          >
            <VideoPoster job={job} />
          </div>
        )}
        {job.status === "failed" && job.error && (
          <ErrorNotice
            message={job.error.message}
            onRetry={job.error.retryable ? () => retry.mutate(sameRequest(job)) : undefined}
          />
        )}
        {job.status === "canceled" && (
          <div className="flex items-center justify-between gap-4 rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
            <span>This video was canceled before it finished.</span>
            <Button
              variant="secondary"
              disabled={retry.isPending}
              onClick={() => retry.mutate(sameRequest(job))}
            >
              Start again
            </Button>
          </div>
        )}
        {retry.isPending && <p className="text-sm text-slate-500">Starting a new video…</p>}
        {retryError && (
          <ErrorNotice
            message={retryError.message}
            onRetry={retryError.retryable ? () => retry.mutate(sameRequest(job)) : undefined}
          />
        )}
        {cancel.error && <ErrorNotice message={cancel.error.message} />}
      </Card>

      <Card>
        <h2 className="text-sm font-semibold text-slate-700">Script</h2>
        <p data-testid="video-script" className="mt-2 whitespace-pre-line text-sm text-slate-700">
          {job.script}
        </p>
        {job.brief && (
          <p className="mt-3 text-sm text-slate-500">
            <span className="font-medium">Brief:</span> {job.brief}
          </p>
        )}
      </Card>
    </div>
  );
}
