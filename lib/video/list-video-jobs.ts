import { and, desc, eq, inArray, lt, or, type SQL } from "drizzle-orm";
import type { z } from "zod";
import { getDb } from "@/db/client";
import { brandMembers, videoJobs } from "@/db/schema";
import type { Principal } from "@/lib/auth/authenticate";
import { getBrandForPrincipal } from "@/lib/brands/get-brand";
import { encodePageCursor } from "@/lib/contracts/common";
import type { listVideoJobsQuery } from "@/lib/contracts/video";
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
  if (query.cursor) {
    const cursor = query.cursor;
    conditions.push(
      or(
        lt(videoJobs.createdAt, cursor.createdAt),
        and(eq(videoJobs.createdAt, cursor.createdAt), lt(videoJobs.id, cursor.id)),
      ),
    );
  }
  const rows = await db
    .select()
    .from(videoJobs)
    .where(and(...conditions))
    .orderBy(desc(videoJobs.createdAt), desc(videoJobs.id))
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    items: await Promise.all(page.map(toVideoJobView)),
    nextCursor: rows.length > query.limit && last ? encodePageCursor(last) : null,
  };
}
