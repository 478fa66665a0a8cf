import { withApi } from "@/lib/api/handler";
import { readJson, readParams } from "@/lib/api/read-request";
import { withAuth } from "@/lib/api/with-auth";
import { getPost, postParams, updatePost, updatePostBody } from "@/lib/contracts/posts";
import { getPostForPrincipal } from "@/lib/posts/get-post";
import { toSignedPostView } from "@/lib/posts/post-view";
import { reviewHistory } from "@/lib/posts/review-history";
import { updatePostContent } from "@/lib/posts/update-post-content";

export const dynamic = "force-dynamic";

export const GET = withApi(
  withAuth(async (_req, { principal, params }) => {
    const { postId } = readParams(params, postParams);
    const row = await getPostForPrincipal({ principal, postId, permission: "post.read" });
    const [post, history] = await Promise.all([toSignedPostView(row), reviewHistory(row.brandId, row.id)]);
    // The ETag is the content's version, which a review names (If-Match) to approve what it read.
    return Response.json(
      { ...post, reviewHistory: history },
      { headers: { "Cache-Control": "no-store", ETag: `"${post.version}"` } },
    );
  }),
  { docId: getPost.id },
);

export const PATCH = withApi(
  withAuth(async (req, { principal, params }) => {
    const { postId } = readParams(params, postParams);
    const input = await readJson(req, updatePostBody);
    const post = await updatePostContent({ principal, postId, input });
    return Response.json(post);
  }),
  { docId: updatePost.id },
);
