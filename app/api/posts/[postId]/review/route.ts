import { withApi } from "@/lib/api/handler";
import { reviewPost as operation } from "@/lib/contracts/reviews";
import { reviewPost } from "@/lib/publishing/review-post";

export const dynamic = "force-dynamic";

export const POST = withApi(operation, async ({ req, principal, params: { postId }, body }) => {
  const { decision: action, comment, version } = body;
  // If-Match: the post's ETag (quoted, maybe weak); the body's `version` wins when both are sent.
  const ifMatch = req.headers
    .get("if-match")
    ?.trim()
    .replace(/^W\//, "")
    .replace(/^"(.*)"$/, "$1");
  return Response.json(
    await reviewPost({ principal, postId, action, comment, version: version ?? (ifMatch || undefined) }),
  );
});
