"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import Link from "next/link";
import { Button, Card, ErrorNotice } from "@/components/ui/primitives";
import { videoJobQueries } from "@/lib/client/queries";
import { VideoPoster } from "./video-poster";
import { formatDuration, VideoStatusBadge } from "./video-status-badge";

export function VideoJobList() {
  const jobs = useInfiniteQuery(videoJobQueries.list());

  if (jobs.isPending) return <p className="text-sm text-slate-500">Loading your videos…</p>;
  if (jobs.error) return <ErrorNotice message={jobs.error.message} onRetry={() => jobs.refetch()} />;

  const items = jobs.data.pages.flatMap((page) => page.items);
  if (items.length === 0) {
    return (
      <Card className="py-12 text-center">
        <h2 className="font-semibold">No videos yet</h2>
        <p className="mx-auto mt-2 max-w-md text-sm text-slate-600">
          Turn a post or a script into a short video in your brand&apos;s colours, with a voice-over. You can
          watch it render here.
        </p>
        <Link
          href="/videos/new"
          className="mt-5 inline-block rounded-lg bg-brand-600 px-4 py-2 text-sm font-medium text-white shadow-sm hover:bg-brand-700"
        >
          Make your first video
        </Link>
      </Card>
    );
  }

  return (
    <div className="space-y-4">
      <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {items.map((job) => (
          <li key={job.jobId} data-testid="video-job-row">
            <Link
              href={`/videos/${job.jobId}`}
              className="block overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm transition hover:border-brand-500"
            >
              <div className="relative aspect-video bg-slate-900">
                <VideoPoster job={job} />
                <span className="absolute left-2 top-2 rounded bg-black/70 px-1.5 py-0.5 text-xs text-white">
                  {job.aspectRatio}
                </span>
                {job.durationSeconds !== null && (
                  <span className="absolute bottom-2 right-2 rounded bg-black/70 px-1.5 py-0.5 text-xs text-white">
                    {formatDuration(job.durationSeconds)}
                  </span>
                )}
              </div>
              <div className="space-y-2 p-4">
                <div className="flex items-center justify-between gap-2">
                  <VideoStatusBadge status={job.status} />
                  <span className="text-xs text-slate-500">{new Date(job.createdAt).toLocaleString()}</span>
                </div>
                <p className="line-clamp-2 text-sm text-slate-700">{job.script}</p>
              </div>
            </Link>
          </li>
        ))}
      </ul>
      {jobs.hasNextPage && (
        <div className="text-center">
          <Button variant="secondary" disabled={jobs.isFetchingNextPage} onClick={() => jobs.fetchNextPage()}>
            {jobs.isFetchingNextPage ? "Loading…" : "Show older videos"}
          </Button>
        </div>
      )}
    </div>
  );
}
