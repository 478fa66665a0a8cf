import { withApi } from "@/lib/api/handler";
import { readJson, readParams } from "@/lib/api/read-request";
import { withAuth } from "@/lib/api/with-auth";
import { reviewPost as operation, postParams, reviewPostBody } from "@/lib/contracts/reviews";
import { reviewPost } from "@/lib/posts/review-post";

export const dynamic = "force-dynamic";

export const POST = withApi(
  withAuth(async (req, { principal, params }) => {
    const { postId } = readParams(params, postParams);
    const { decision, comment } = await readJson(req, reviewPostBody);
    return Response.json(await reviewPost({ principal, postId, action: decision, comment }));
  }),
  { docId: operation.id },
);
