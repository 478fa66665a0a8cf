import { and, eq } from "drizzle-orm";
import { getDb, type Tx } from "@/db/client";
import { brandMembers, type Post, posts } from "@/db/schema";
import { notFound } from "@/lib/api/api-error";
import type { Principal } from "@/lib/auth/authenticate";

/**
 * Loads a post of a brand the principal is a member of; anything else is 404, like brands. Inside a
 * transaction it can lock the row, so concurrent edits are checked against the latest version.
 */
export async function getPostForPrincipal({
  principal,
  postId,
  tx,
  forUpdate = false,
}: {
  principal: Principal;
  postId: string;
  tx?: Tx;
  forUpdate?: boolean;
}): Promise<Post> {
  const db = tx ?? (await getDb());
  const query = db
    .select({ post: posts })
    .from(posts)
    .innerJoin(
      brandMembers,
      and(eq(brandMembers.brandId, posts.brandId), eq(brandMembers.userId, principal.userId)),
    )
    .where(eq(posts.id, postId));
  const [row] = forUpdate ? await query.for("update", { of: posts }) : await query;
  if (!row) throw notFound("Post");
  return row.post;
}
