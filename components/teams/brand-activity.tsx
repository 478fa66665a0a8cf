"use client";

import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { Button, Card, ErrorNotice } from "@/components/ui/primitives";
import { callApi } from "@/lib/client/api-client";
import { listActivity } from "@/lib/client/operations";
import { brandQueries } from "@/lib/client/queries";
import type { ActivityEntryView } from "@/lib/contracts/activity";
import type { ActivityAction } from "@/lib/contracts/activity-actions";
import { formatInZone } from "@/lib/contracts/time-zone";

/** Each action as a sentence after the actor's name. */
const ACTION_WORDS: Record<ActivityAction, string> = {
  "brand.created": "created the brand",
  "brand.updated": "edited the brand",
  "brand.avatar_uploaded": "uploaded the avatar",
  "brand.kit_updated": "changed the brand kit",
  "member.joined": "joined the brand",
  "member.role_changed": "changed the role of",
  "member.removed": "removed",
  "invitation.created": "invited",
  "invitation.resent": "sent the invitation again to",
  "invitation.revoked": "revoked the invitation of",
  "post.created": "created a post",
  "post.updated": "edited a post",
  "post.submitted": "submitted a post for review",
  "post.approved": "approved a post",
  "post.changes_requested": "asked for changes to a post",
  "post.published": "published a post",
  "post.deleted": "deleted a post",
  "publication.scheduled": "scheduled a publication",
  "publication.moved": "moved a publication",
  "publication.canceled": "canceled a publication",
  "publication.failed": "had a publication fail",
  "channel.connected": "connected a channel",
  "channel.disconnected": "disconnected a channel",
  "video.created": "made a video",
  "video.canceled": "canceled a video",
  "api_key.created": "created an API key",
  "api_key.revoked": "revoked an API key",
  "webhook.created": "added a webhook",
  "webhook.revoked": "deleted a webhook",
  "channel.personal_disconnected": "disconnected the personal account of",
};

const text = (value: unknown) => (typeof value === "string" ? value : undefined);

/** The few details worth a glance: who, which role, which fields, which key or host. */
function detailOf(entry: ActivityEntryView) {
  const d = entry.details;
  const parts: string[] = [];
  if (text(d.email)) parts.push(text(d.email) as string);
  if (text(d.from) && text(d.to) && entry.action === "member.role_changed") parts.push(`${d.from} → ${d.to}`);
  else if (text(d.role)) parts.push(`as ${d.role}`);
  // Field names as words: requiresApproval → requires approval.
  if (Array.isArray(d.fields))
    parts.push(
      `(${d.fields
        .map((f) =>
          String(f)
            .replace(/([A-Z])/g, " $1")
            .toLowerCase(),
        )
        .join(", ")})`,
    );
  if (text(d.name) && entry.subjectType === "api_key") parts.push(`“${d.name}”`);
  if (text(d.host)) parts.push(text(d.host) as string);
  if (text(d.accountName)) parts.push(`“${d.accountName}”`);
  if (text(d.channel)) parts.push(`for ${d.channel}`);
  if (text(d.code) && entry.action === "publication.failed") parts.push(`(${d.code})`);
  return parts.join(" ");
}

const SUBJECT_LINKS: Record<string, (id: string) => string> = {
  post: (id) => `/studio/${id}`,
  video: (id) => `/videos/${id}`,
};

/** /brands/{brandId}/activity: who did what and when, newest first. */
export function BrandActivity({ brandId }: { brandId: string }) {
  const activity = useInfiniteQuery({
    queryKey: ["brands", "activity", brandId],
    initialPageParam: undefined as string | undefined,
    queryFn: async ({ pageParam, signal }) =>
      (await callApi(listActivity, { params: { brandId }, query: { cursor: pageParam }, signal })).data,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });
  const brand = useQuery(brandQueries.detail(brandId));
  const timeZone = brand.data?.timeZone ?? "UTC";
  const items = activity.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <div className="space-y-6">
      <div>
        <Link href={`/brands/${brandId}`} className="text-sm text-slate-500 hover:text-slate-800">
          ← {brand.data?.name ?? "Brand"}
        </Link>
        <h1 className="mt-2 text-2xl font-semibold tracking-tight">Activity</h1>
        <p className="text-sm text-slate-600">
          Who did what to this brand, and when; newest first.{" "}
          <span data-testid="activity-zone">Times in {timeZone}, the brand's time zone.</span>
        </p>
      </div>
      <Card className="space-y-3">
        {activity.isPending && <div aria-busy className="h-24 animate-pulse rounded bg-slate-100" />}
        {activity.error && (
          <ErrorNotice message={activity.error.message} onRetry={() => activity.refetch()} />
        )}
        {activity.data && items.length === 0 && <p className="text-sm text-slate-600">Nothing yet.</p>}
        <ol className="divide-y divide-slate-100">
          {items.map((entry) => (
            <li
              key={entry.activityId}
              data-action={entry.action}
              className="grid gap-x-3 gap-y-0.5 py-3 text-sm sm:grid-cols-[9rem_1fr]"
            >
              <time
                className="text-xs text-slate-600 sm:text-sm"
                dateTime={entry.createdAt}
                data-testid="activity-time"
              >
                {formatInZone(entry.createdAt, timeZone, { zone: false })}
              </time>
              <p className="min-w-0 break-words">
                <span className="font-medium">{entry.actorEmail ?? "A deleted account"}</span>{" "}
                {entry.subjectType && entry.subjectId && SUBJECT_LINKS[entry.subjectType] ? (
                  <Link
                    href={SUBJECT_LINKS[entry.subjectType](entry.subjectId)}
                    className="text-brand-700 underline hover:no-underline"
                  >
                    {ACTION_WORDS[entry.action]}
                  </Link>
                ) : (
                  ACTION_WORDS[entry.action]
                )}{" "}
                <span className="text-slate-600">{detailOf(entry)}</span>
              </p>
              {typeof entry.details.comment === "string" && (
                <p className="text-slate-700 sm:col-start-2">“{entry.details.comment}”</p>
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
