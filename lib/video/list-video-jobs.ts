import { and, eq, inArray, type SQL } from "drizzle-orm";
import type { z } from "zod";
import { getDb } from "@/db/client";
import { brandMembers, type VideoJob, videoJobs } from "@/db/schema";
import type { Principal } from "@/lib/auth/authenticate";
import { getBrandForPrincipal } from "@/lib/brands/get-brand";
import type { listVideoJobsQuery } from "@/lib/contracts/video";
import { pageBy } from "@/lib/query/page-by";
import { toVideoJobView } from "./video-job-view";

/** GET /api/video/jobs: the jobs of the principal's brands (or of one brand, or one post), newest first. */
export async function listVideoJobsForPrincipal({
  principal,
  query,
}: {
  principal: Principal;
  query: z.output<typeof listVideoJobsQuery>;
}) {
  const db = await getDb();
  const conditions: (SQL | undefined)[] = [];
  if (query.brandId) {
    await getBrandForPrincipal({ principal, brandId: query.brandId, permission: "video.read" });
    conditions.push(eq(videoJobs.brandId, query.brandId));
  } else {
    const memberOf = db
      .select({ brandId: brandMembers.brandId })
      .from(brandMembers)
      .where(eq(brandMembers.userId, principal.userId));
    conditions.push(inArray(videoJobs.brandId, memberOf));
  }
  if (query.postId) conditions.push(eq(videoJobs.postId, query.postId));
  const { page, nextCursor } = await pageBy<VideoJob>(videoJobs, and(...conditions), query);
  return {
    items: await Promise.all(page.map(toVideoJobView)),
    nextCursor,
  };
}
