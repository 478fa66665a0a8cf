"use client";

import { infiniteQueryOptions, type QueryClient, queryOptions } from "@tanstack/react-query";
import { callApi } from "@/lib/client/api-client";
import {
  backendConnectCheck,
  brandContext,
  getBrand,
  getPost,
  getVideoJobStatus,
  listApiKeys,
  listBrands,
  listInvitations,
  listMembers,
  listPosts,
  listVideoJobs,
  listWebhookDeliveries,
  listWebhooks,
} from "@/lib/client/operations";
import type { BrandResponse } from "@/lib/contracts/brands";
import type { HealthResponse } from "@/lib/contracts/health";
import type { PostView } from "@/lib/contracts/posts";
import type { VideoJobView } from "@/lib/contracts/video";
import { isTerminalVideoStatus as isTerminal } from "@/lib/contracts/video-rules";

/**
 * Every TanStack Query key the app uses, from one place. Each key holds exactly one shape: the response
 * of the operation its factory calls (a list key holds the list envelope `{ items, … }`; components that
 * want the array use `select`). Keys nest, so invalidating `queryKeys.brands.all` reaches every brand query.
 */
export const queryKeys = {
  health: ["health"] as const,
  apiKeys: ["api-keys"] as const,
  brands: {
    all: ["brands"] as const,
    list: () => ["brands", "list"] as const,
    detail: (brandId: string) => ["brands", "detail", brandId] as const,
    context: (brandId: string) => ["brands", "context", brandId] as const,
    members: (brandId: string) => ["brands", "members", brandId] as const,
    invitations: (brandId: string) => ["brands", "invitations", brandId] as const,
  },
  posts: {
    all: ["posts"] as const,
    list: (brandId: string) => ["posts", "list", brandId] as const,
    detail: (postId: string) => ["posts", "detail", postId] as const,
    /** A published post's results per publication. */
    metrics: (postId: string) => ["posts", "metrics", postId] as const,
  },
  publications: {
    all: ["publications"] as const,
    /** The calendar's window of a brand (the list envelope's items). */
    calendar: (brandId: string, from: string, to: string) =>
      ["publications", "calendar", brandId, from, to] as const,
    /** One post's publications (the list envelope's items). */
    post: (postId: string) => ["publications", "post", postId] as const,
    detail: (publicationId: string) => ["publications", "detail", publicationId] as const,
  },
  webhooks: {
    all: ["webhooks"] as const,
    list: () => ["webhooks", "list"] as const,
    deliveries: (webhookId: string) => ["webhooks", "deliveries", webhookId] as const,
  },
  videoJobs: {
    all: ["video-jobs"] as const,
    list: () => ["video-jobs", "list"] as const,
    detail: (jobId: string) => ["video-jobs", "detail", jobId] as const,
  },
};

// Matches the Retry-After an avatar upload answers with.
const TRAINING_POLL_MS = 2000;
/** How often a post whose images the model is still making is read again. */
const IMAGE_JOB_POLL_MS = 2000;
/** Used when a non-terminal job answer carries no Retry-After (it always should). */
const FALLBACK_POLL_SECONDS = 2;
/** While a job on screen is still rendering, the job list refreshes this often. */
const ACTIVE_JOBS_REFRESH_MS = 3000;

export const healthQuery = () =>
  queryOptions({
    queryKey: queryKeys.health,
    queryFn: async ({ signal }) => {
      // Health answers 503 with the same body when degraded; show it rather than throwing.
      const response = await fetch(backendConnectCheck.path, { signal, cache: "no-store" });
      return (await response.json()) as HealthResponse;
    },
    refetchInterval: 30_000,
  });

export const apiKeysQuery = () =>
  queryOptions({
    queryKey: queryKeys.apiKeys,
    queryFn: async ({ signal }) => (await callApi(listApiKeys, { signal })).data,
  });

export const brandQueries = {
  list: () =>
    queryOptions({
      queryKey: queryKeys.brands.list(),
      queryFn: async ({ signal }) => (await callApi(listBrands, { signal })).data,
    }),
  /** One brand, polled while its avatar trains so the page follows it to ready or failed. */
  detail: (brandId: string) =>
    queryOptions({
      queryKey: queryKeys.brands.detail(brandId),
      queryFn: async ({ signal }) => (await callApi(getBrand, { params: { brandId }, signal })).data,
      refetchInterval: (query) => (query.state.data?.avatarStatus === "training" ? TRAINING_POLL_MS : false),
    }),
  context: (brandId: string) =>
    queryOptions({
      queryKey: queryKeys.brands.context(brandId),
      queryFn: async ({ signal }) => (await callApi(brandContext, { params: { brandId }, signal })).data,
    }),
  members: (brandId: string) =>
    queryOptions({
      queryKey: queryKeys.brands.members(brandId),
      queryFn: async ({ signal }) => (await callApi(listMembers, { params: { brandId }, signal })).data,
    }),
  invitations: (brandId: string) =>
    queryOptions({
      queryKey: queryKeys.brands.invitations(brandId),
      queryFn: async ({ signal }) => (await callApi(listInvitations, { params: { brandId }, signal })).data,
    }),
};

export const postQueries = {
  /** A brand's latest posts (one page of up to 100, newest first). */
  list: (brandId: string) =>
    queryOptions({
      queryKey: queryKeys.posts.list(brandId),
      queryFn: async ({ signal }) =>
        (await callApi(listPosts, { query: { brandId, limit: 100 }, signal })).data,
    }),
  detail: (postId: string) =>
    queryOptions({
      queryKey: queryKeys.posts.detail(postId),
      queryFn: async ({ signal }) => (await callApi(getPost, { params: { postId }, signal })).data,
      // While the image model is making a new draft's images, the post is read again until each settles.
      refetchInterval: (query) => (imagesInProgress(query.state.data) ? IMAGE_JOB_POLL_MS : false),
    }),
};

/** True while any media item's background image is queued or being made. */
export const imagesInProgress = (post: PostView | undefined) =>
  !!post?.mediaPlan.items.some(
    (item) => item.imageJob?.state === "pending" || item.imageJob?.state === "generating",
  );

/** A polled video job: the job, plus what the next poll needs (its ETag and the server's Retry-After). */
export type PolledJob = { job: VideoJobView; etag: string | null; retryAfterSeconds: number | null };

export const videoJobQueries = {
  list: () =>
    infiniteQueryOptions({
      queryKey: queryKeys.videoJobs.list(),
      initialPageParam: undefined as string | undefined,
      queryFn: async ({ pageParam, signal }) =>
        (await callApi(listVideoJobs, { query: { cursor: pageParam, limit: 20 }, signal })).data,
      getNextPageParam: (page) => page.nextCursor ?? undefined,
      refetchInterval: (query) =>
        query.state.data?.pages.some((page) => page.items.some((job) => !isTerminal(job.status)))
          ? ACTIVE_JOBS_REFRESH_MS
          : false,
    }),
  /**
   * A video job, polled at the server's Retry-After interval until it reaches a terminal status. Each poll
   * sends the last ETag, so an unchanged job costs a 304 with no body.
   */
  detail: (jobId: string, queryClient: QueryClient) => {
    const queryKey = queryKeys.videoJobs.detail(jobId);
    return queryOptions({
      queryKey,
      queryFn: async ({ signal }): Promise<PolledJob> => {
        const previous = queryClient.getQueryData<PolledJob>(queryKey);
        const response = await callApi(getVideoJobStatus, {
          params: { jobId },
          headers: previous?.etag ? { "If-None-Match": previous.etag } : undefined,
          signal,
        });
        const retryAfterSeconds = Number(response.headers.get("retry-after")) || null;
        if (response.data === null) {
          if (previous) return { ...previous, retryAfterSeconds };
          throw new Error("The server answered 304 to a first request.");
        }
        return { job: response.data, etag: response.headers.get("etag"), retryAfterSeconds };
      },
      refetchInterval: (query) => {
        const polled = query.state.data;
        if (!polled || isTerminal(polled.job.status)) return false;
        return (polled.retryAfterSeconds ?? FALLBACK_POLL_SECONDS) * 1000;
      },
    });
  },
};

/** After a brand changed (saved, created, avatar uploaded): the new brand in place, everything derived refreshed. */
export function brandChanged(queryClient: QueryClient, brand: BrandResponse) {
  queryClient.setQueryData(queryKeys.brands.detail(brand.brandId), brand);
  void queryClient.invalidateQueries({ queryKey: queryKeys.brands.list() });
  void queryClient.invalidateQueries({ queryKey: queryKeys.brands.context(brand.brandId) });
}

/** After a post was generated or saved: the post in place, its brand's list refreshed. */
export function postChanged(queryClient: QueryClient, post: PostView) {
  queryClient.setQueryData(queryKeys.posts.detail(post.postId), post);
  void queryClient.invalidateQueries({ queryKey: queryKeys.posts.list(post.brandId) });
}

export const webhookQueries = {
  list: () =>
    queryOptions({
      queryKey: queryKeys.webhooks.list(),
      queryFn: async ({ signal }) => (await callApi(listWebhooks, { signal })).data,
    }),
  /** One endpoint's delivery log; refreshes every 3 s while a delivery is pending. */
  deliveries: (webhookId: string) =>
    queryOptions({
      queryKey: queryKeys.webhooks.deliveries(webhookId),
      queryFn: async ({ signal }) =>
        (await callApi(listWebhookDeliveries, { params: { webhookId }, signal })).data,
      refetchInterval: (query) =>
        query.state.data?.items.some((delivery) => delivery.status === "pending") ? 3000 : false,
    }),
};
