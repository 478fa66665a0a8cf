import { withApi } from "@/lib/api/handler";
import { readJson, readParams } from "@/lib/api/read-request";
import { withAuth } from "@/lib/api/with-auth";
import { submitPost as operation, postParams, submitPostBody } from "@/lib/contracts/reviews";
import { reviewPost } from "@/lib/publishing/review-post";

export const dynamic = "force-dynamic";

export const POST = withApi(
  withAuth(async (req, { principal, params }) => {
    const { postId } = readParams(params, postParams);
    const { comment } = await readJson(req, submitPostBody);
    return Response.json(await reviewPost({ principal, postId, action: "submit", comment }));
  }),
  { docId: operation.id },
);
