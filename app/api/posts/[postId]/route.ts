import { withApi } from "@/lib/api/handler";
import { getPost, updatePost } from "@/lib/contracts/posts";
import { getPostForPrincipal } from "@/lib/posts/get-post";
import { toSignedPostView } from "@/lib/posts/post-view";
import { reviewHistory } from "@/lib/posts/review-history";
import { updatePostContent } from "@/lib/posts/update-post-content";

export const dynamic = "force-dynamic";

export const GET = withApi(getPost, async ({ principal, params: { postId } }) => {
  const row = await getPostForPrincipal({ principal, postId, permission: "post.read" });
  const [post, history] = await Promise.all([toSignedPostView(row), reviewHistory(row.brandId, row.id)]);
  // The ETag is the content's version, which a review names (If-Match) to approve what it read.
  const headers = { "Cache-Control": "no-store", ETag: `"${post.version}"` };
  return Response.json({ ...post, reviewHistory: history }, { headers });
});

export const PATCH = withApi(updatePost, async ({ principal, params: { postId }, body }) =>
  Response.json(await updatePostContent({ principal, postId, input: body })),
);
