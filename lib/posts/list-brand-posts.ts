import { eq } from "drizzle-orm";
import { type Post, posts } from "@/db/schema";
import type { Principal } from "@/lib/auth/authenticate";
import { getBrandForPrincipal } from "@/lib/brands/get-brand";
import type { PageCursor } from "@/lib/contracts/common";
import type { PostView } from "@/lib/contracts/posts";
import { pageBy } from "@/lib/query/page-by";
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
  const brand = await getBrandForPrincipal({ principal, brandId, permission: "post.read" });
  const { page, nextCursor } = await pageBy<Post>(posts, eq(posts.brandId, brand.id), { cursor, limit });
  return {
    items: await Promise.all(page.map(toSignedPostView)),
    nextCursor,
  };
}
