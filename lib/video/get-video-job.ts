import "server-only";
import { type VideoJob, videoJobs } from "@/db/schema";
import type { Principal } from "@/lib/auth/authenticate";
import { memberScoped } from "@/lib/brands/brand-access";
import type { Permission } from "@/lib/contracts/permissions";

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
  return (await memberScoped(videoJobs, jobId, principal, permission)).row;
}
