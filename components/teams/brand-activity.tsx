"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import Link from "next/link";
import { Button, Card, ErrorNotice } from "@/components/ui/primitives";
import { callApi } from "@/lib/client/api-client";
import { listActivity } from "@/lib/client/operations";

/** /brands/{brandId}/activity: who did what and when, newest first. */
export function BrandActivity({ brandId }: { brandId: string }) {
  const activity = useInfiniteQuery({
    queryKey: ["brands", "activity", brandId],
    initialPageParam: undefined as string | undefined,
    queryFn: async ({ pageParam, signal }) =>
      (await callApi(listActivity, { params: { brandId }, query: { cursor: pageParam }, signal })).data,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });
  const items = activity.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <div className="space-y-6">
      <div>
        <Link href={`/brands/${brandId}`} className="text-sm text-slate-500 hover:text-slate-800">
          ← Brand
        </Link>
        <h1 className="mt-2 text-2xl font-semibold tracking-tight">Activity</h1>
      </div>
      <Card className="space-y-3">
        {activity.isPending && <div aria-busy className="h-24 animate-pulse rounded bg-slate-100" />}
        {activity.error && (
          <ErrorNotice message={activity.error.message} onRetry={() => activity.refetch()} />
        )}
        {activity.data && items.length === 0 && <p className="text-sm text-slate-600">Nothing yet.</p>}
        <ol className="divide-y divide-slate-100">
          {items.map((entry) => (
            <li key={entry.activityId} className="flex flex-wrap gap-x-3 py-2 text-sm">
              <time className="text-slate-500" dateTime={entry.createdAt}>
                {new Date(entry.createdAt).toLocaleString()}
              </time>
              <span className="font-medium">{entry.actorEmail ?? "A deleted account"}</span>
              <span>{entry.action.replace(".", " ").replace("_", " ")}</span>
              {typeof entry.details.email === "string" && (
                <span className="text-slate-600">{entry.details.email}</span>
              )}
              {typeof entry.details.comment === "string" && (
                <span className="w-full text-slate-600">“{entry.details.comment}”</span>
              )}
            </li>
          ))}
        </ol>
        {activity.hasNextPage && (
          <Button
            variant="secondary"
            onClick={() => activity.fetchNextPage()}
            disabled={activity.isFetchingNextPage}
          >
            {activity.isFetchingNextPage ? "Loading…" : "Load more"}
          </Button>
        )}
      </Card>
    </div>
  );
}
