import { withApi } from "@/lib/api/handler";
import { readJson, readParams } from "@/lib/api/read-request";
import { withAuth } from "@/lib/api/with-auth";
import { reviewPost as operation, postParams, reviewPostBody } from "@/lib/contracts/reviews";
import { reviewPost } from "@/lib/publishing/review-post";

export const dynamic = "force-dynamic";

export const POST = withApi(
  withAuth(async (req, { principal, params }) => {
    const { postId } = readParams(params, postParams);
    const { decision, comment, version } = await readJson(req, reviewPostBody);
    // If-Match: the post's ETag (quoted, maybe weak); the body's `version` wins when both are sent.
    const ifMatch = req.headers
      .get("if-match")
      ?.trim()
      .replace(/^W\//, "")
      .replace(/^"(.*)"$/, "$1");
    return Response.json(
      await reviewPost({
        principal,
        postId,
        action: decision,
        comment,
        version: version ?? (ifMatch || undefined),
      }),
    );
  }),
  { docId: operation.id },
);
