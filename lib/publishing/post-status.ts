import "server-only";
import { and, eq, inArray } from "drizzle-orm";
import { getDb, type Tx } from "@/db/client";
import { brands, posts, publications } from "@/db/schema";

/**
 * The post's status after its publications changed (DESIGN §10): `published` once any publication is
 * published; `scheduled` while one is scheduled or publishing; otherwise back to where it was before
 * scheduling (`approved` on a brand that requires approval, else `draft`). Never out of review: see below.
 */
export async function settlePostStatus(postId: string, tx?: Tx) {
  const db = tx ?? (await getDb());
  const [post] = await db
    .select({ status: posts.status, requiresApproval: brands.requiresApproval })
    .from(posts)
    .innerJoin(brands, eq(brands.id, posts.brandId))
    .where(eq(posts.id, postId));
  if (!post) return;
  // A post in review (or sent back to draft) moves on only through a review: no publication's outcome,
  // cancel or failure makes it approved, scheduled or published again (DESIGN §11).
  if (post.requiresApproval && (post.status === "in_review" || post.status === "draft")) return;
  const rows = await db
    .select({ status: publications.status })
    .from(publications)
    .where(
      and(
        eq(publications.postId, postId),
        inArray(publications.status, ["scheduled", "publishing", "published"]),
      ),
    );
  const next = rows.some((row) => row.status === "published")
    ? "published"
    : rows.length > 0
      ? "scheduled"
      : post.status === "scheduled"
        ? post.requiresApproval
          ? "approved"
          : "draft"
        : post.status;
  if (next !== post.status) {
    await db.update(posts).set({ status: next, updatedAt: new Date() }).where(eq(posts.id, postId));
  }
}
