import { and, desc, eq, lt, or } from "drizzle-orm";
import { getDb } from "@/db/client";
import { posts } from "@/db/schema";
import type { Principal } from "@/lib/auth/authenticate";
import { getBrandForPrincipal } from "@/lib/brands/get-brand";
import { encodePageCursor, type PageCursor } from "@/lib/contracts/common";
import type { PostView } from "@/lib/contracts/posts";
import { toSignedPostView } from "./post-view";

/** A brand's posts, newest first; the cursor is the last item's (createdAt, id), so pages never overlap. */
export async function listBrandPosts({
  principal,
  brandId,
  cursor,
  limit,
}: {
  principal: Principal;
  brandId: string;
  cursor?: PageCursor;
  limit: number;
}): Promise<{ items: PostView[]; nextCursor: string | null }> {
  const after = cursor;
  const brand = await getBrandForPrincipal({ principal, brandId, permission: "post.read" });
  const db = await getDb();
  const rows = await db
    .select()
    .from(posts)
    .where(
      and(
        eq(posts.brandId, brand.id),
        after
          ? or(
              lt(posts.createdAt, after.createdAt),
              and(eq(posts.createdAt, after.createdAt), lt(posts.id, after.id)),
            )
          : undefined,
      ),
    )
    .orderBy(desc(posts.createdAt), desc(posts.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    items: await Promise.all(page.map(toSignedPostView)),
    nextCursor: rows.length > limit && last ? encodePageCursor(last) : null,
  };
}
