import "server-only";
import { and, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { brandMembers, type VideoJob, videoJobs } from "@/db/schema";
import type { Principal } from "@/lib/auth/authenticate";
import { assertCan } from "@/lib/brands/brand-access";
import type { Permission } from "@/lib/contracts/permissions";
import { notFound } from "@/lib/errors/api-error";

/** A video job of a brand the principal is a member of; anyone else's answers 404, like a missing
 * one; a member whose role may not do `permission` gets 403 `forbidden`. */
export async function getVideoJobForPrincipal({
  principal,
  jobId,
  permission,
}: {
  principal: Principal;
  jobId: string;
  permission: Permission;
}): Promise<VideoJob> {
  const db = await getDb();
  const [row] = await db
    .select({ job: videoJobs, role: brandMembers.role })
    .from(videoJobs)
    .innerJoin(
      brandMembers,
      and(eq(brandMembers.brandId, videoJobs.brandId), eq(brandMembers.userId, principal.userId)),
    )
    .where(eq(videoJobs.id, jobId));
  if (!row) throw notFound("Video job");
  assertCan(row.role, permission);
  return row.job;
}
