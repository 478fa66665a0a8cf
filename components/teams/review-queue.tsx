"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { CHANNEL_LABELS } from "@/components/studio/form-controls";
import { Card, ErrorNotice } from "@/components/ui/primitives";
import { callApi } from "@/lib/client/api-client";
import { listReviewQueue } from "@/lib/client/operations";
import { brandQueries } from "@/lib/client/queries";
import { formatInZone } from "@/lib/contracts/time-zone";

/** /review: the posts waiting for the signed-in user's approval, across their brands. */
export function ReviewQueue() {
  const queue = useQuery({
    queryKey: ["posts", "review-queue"],
    queryFn: async ({ signal }) => (await callApi(listReviewQueue, { signal })).data,
  });
  const brands = useQuery(brandQueries.list());
  const brandOf = (brandId: string) => brands.data?.items.find((brand) => brand.brandId === brandId);
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Review</h1>
        <p className="text-sm text-slate-600">
          Posts submitted for approval on brands you own, oldest first.
        </p>
      </div>
      {queue.isPending && <div aria-busy className="h-24 animate-pulse rounded-xl bg-slate-100" />}
      {queue.error && <ErrorNotice message={queue.error.message} onRetry={() => queue.refetch()} />}
      {queue.data?.items.length === 0 && (
        <Card>
          <p className="text-sm text-slate-600">Nothing waits for your review.</p>
        </Card>
      )}
      <ul className="space-y-3">
        {queue.data?.items.map((post) => (
          <li key={post.postId}>
            <Card className="space-y-2">
              <p className="text-xs font-medium uppercase tracking-wide text-slate-500">
                {brandOf(post.brandId)?.name ?? "Brand"} · {CHANNEL_LABELS[post.channel]}
              </p>
              {post.review && (
                <p className="text-xs text-slate-600">
                  Submitted{" "}
                  <time dateTime={post.review.at} data-testid="review-submitted">
                    {formatInZone(post.review.at, brandOf(post.brandId)?.timeZone ?? "UTC")}
                  </time>
                </p>
              )}
              <Link href={`/studio/${post.postId}`} className="font-medium text-brand-700 hover:underline">
                {post.topic}
              </Link>
              <p className="line-clamp-2 text-sm text-slate-700">{post.caption}</p>
              {post.review?.comment && (
                <p className="rounded-lg bg-slate-50 px-3 py-2 text-sm text-slate-700">
                  Note from the author: {post.review.comment}
                </p>
              )}
            </Card>
          </li>
        ))}
      </ul>
    </div>
  );
}
