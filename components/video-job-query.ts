"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { callApi } from "@/lib/client/api-client";
import { getVideoJobStatus, isTerminalVideoStatus, type VideoJobView } from "@/lib/contracts/video";

type PolledJob = { job: VideoJobView; etag: string | null; retryAfterSeconds: number | null };

export const videoJobKey = (jobId: string) => ["video-job", jobId] as const;

/** Used when a non-terminal answer carries no Retry-After (it always should). */
const FALLBACK_POLL_SECONDS = 2;

/**
 * A video job, polled at the server's Retry-After interval until it reaches a terminal status. Each poll
 * sends the last ETag, so an unchanged job costs a 304 with no body.
 */
export function useVideoJob(jobId: string) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: videoJobKey(jobId),
    queryFn: async (): Promise<PolledJob> => {
      const previous = queryClient.getQueryData<PolledJob>(videoJobKey(jobId));
      const response = await callApi<VideoJobView>(getVideoJobStatus, {
        params: { jobId },
        headers: previous?.etag ? { "If-None-Match": previous.etag } : undefined,
      });
      const retryAfterSeconds = Number(response.headers.get("retry-after")) || null;
      if (response.status === 304 && previous) return { ...previous, retryAfterSeconds };
      return { job: response.data, etag: response.headers.get("etag"), retryAfterSeconds };
    },
    refetchInterval: (query) => {
      const polled = query.state.data;
      if (!polled || isTerminalVideoStatus(polled.job.status)) return false;
      return (polled.retryAfterSeconds ?? FALLBACK_POLL_SECONDS) * 1000;
    },
  });
}
