import { and, count, eq, inArray } from "drizzle-orm";
import type { Tx } from "@/db/client";
import { type VideoJobStatus, videoJobs } from "@/db/schema";
import { effectiveMonthlyQuota } from "@/lib/brands/quota-policy";
import { ApiError } from "@/lib/errors/api-error";

/** Failed and canceled jobs give their unit back, so only these count. */
const COUNTED: VideoJobStatus[] = ["queued", "running", "succeeded"];

/** The calendar month (UTC) a job counts against: "YYYY-MM". */
export const quotaMonth = (at: Date) => at.toISOString().slice(0, 7);

/** The first instant of the next UTC month, when the quota starts over. */
export const quotaResetsAt = (at: Date) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));

/**
 * Throws quota_exceeded when the brand has used its videos for this month. Must run in the transaction
 * that inserts the job, after the brand row is locked, so concurrent requests count one after another.
 */
export async function assertVideoQuotaLeft({
  tx,
  brandId,
  brandQuota,
  now,
}: {
  tx: Tx;
  brandId: string;
  brandQuota: number | null;
  now: Date;
}) {
  const limit = effectiveMonthlyQuota(brandQuota);
  const [{ used }] = await tx
    .select({ used: count() })
    .from(videoJobs)
    .where(
      and(
        eq(videoJobs.brandId, brandId),
        eq(videoJobs.quotaMonth, quotaMonth(now)),
        inArray(videoJobs.status, COUNTED),
      ),
    );
  if (used >= limit) {
    const resetsAt = quotaResetsAt(now).toISOString();
    throw new ApiError(
      "quota_exceeded",
      `This brand has used all ${limit} of its videos for this month. The quota starts over on ${resetsAt.slice(0, 10)} (UTC).`,
      { details: { limit, used, resetsAt } },
    );
  }
}
