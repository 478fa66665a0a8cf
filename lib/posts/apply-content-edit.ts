import "server-only";
import { eq } from "drizzle-orm";
import type { Tx } from "@/db/client";
import { brands, type Post } from "@/db/schema";
import type { PostStatus } from "@/lib/contracts/enums";
import { contentHash, type PostContent } from "./content-hash";
import { holdPublications } from "./hold-publications";
import { statusAfterEdit } from "./post-state";

/**
 * An edit of what a publication would send (DESIGN §11), inside the edit's transaction with the post row
 * locked: when the content really changes, an approved, scheduled or published post goes back to review
 * (brands that require approval) and its waiting publications are held until the next approval. Without
 * approval a waiting publication sends the post as it is when it runs. Answers the post's new status.
 */
export async function applyContentEdit(tx: Tx, current: Post, next: PostContent): Promise<PostStatus> {
  if (contentHash(current) === contentHash(next)) return current.status;
  const [brand] = await tx
    .select({ requiresApproval: brands.requiresApproval })
    .from(brands)
    .where(eq(brands.id, current.brandId));
  const requiresApproval = brand?.requiresApproval ?? false;
  if (requiresApproval) await holdPublications(tx, current.id);
  return statusAfterEdit(current.status, requiresApproval);
}
