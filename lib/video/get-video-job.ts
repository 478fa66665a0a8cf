import { and, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { brandMembers, type VideoJob, videoJobs } from "@/db/schema";
import { notFound } from "@/lib/api/api-error";
import type { Principal } from "@/lib/auth/authenticate";

/** A video job of a brand the principal is a member of; anyone else's answers 404, like a missing one. */
export async function getVideoJobForPrincipal({
  principal,
  jobId,
}: {
  principal: Principal;
  jobId: string;
}): Promise<VideoJob> {
  const db = await getDb();
  const [row] = await db
    .select({ job: videoJobs })
    .from(videoJobs)
    .innerJoin(
      brandMembers,
      and(eq(brandMembers.brandId, videoJobs.brandId), eq(brandMembers.userId, principal.userId)),
    )
    .where(eq(videoJobs.id, jobId));
  if (!row) throw notFound("Video job");
  return row.job;
}
