import type { Publication } from "@/db/schema";
import type { PublicationView } from "@/lib/contracts/publishing";
import type { ErrorCode } from "@/lib/errors/error-codes";

const iso = (value: Date | null) => (value ? value.toISOString() : null);

export function toPublicationView(row: Publication): PublicationView {
  return {
    publicationId: row.id,
    postId: row.postId,
    brandId: row.brandId,
    channelId: row.channelId,
    channel: row.channel,
    placement: row.placement,
    status: row.status,
    publishAt: row.publishAt.toISOString(),
    nextAttemptAt: row.status === "scheduled" ? iso(row.nextAttemptAt) : null,
    startedAt: iso(row.startedAt),
    publishedAt: iso(row.publishedAt),
    finishedAt: iso(row.finishedAt),
    externalId: row.externalId,
    permalink: row.permalink,
    error:
      row.status === "failed" && row.errorCode
        ? {
            code: row.errorCode as ErrorCode,
            message: row.errorMessage ?? "",
            retryable: row.errorRetryable ?? false,
          }
        : null,
    attempts: row.attempts,
    createdAt: row.createdAt.toISOString(),
  };
}

/** What a calendar names a post by: its topic, else the first eight words of its caption. */
export function postName(topic: string, caption: string) {
  if (topic.trim()) return topic.trim();
  const words = caption.trim().split(/\s+/);
  return words.length > 8 ? `${words.slice(0, 8).join(" ")}…` : words.join(" ");
}
