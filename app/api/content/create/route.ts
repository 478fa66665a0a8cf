import { withApi } from "@/lib/api/handler";
import { readJson } from "@/lib/api/read-request";
import { withAuth } from "@/lib/api/with-auth";
import { generatePost, generatePostBody } from "@/lib/contracts/posts";
import { generatePostDraft } from "@/lib/posts/generate-post-draft";

export const dynamic = "force-dynamic";

export const POST = withApi(
  withAuth(async (req, { principal, requestId }) => {
    const input = await readJson(req, generatePostBody);
    const post = await generatePostDraft({ principal, input, requestId });
    return Response.json(post, { status: 201, headers: { Location: `/api/posts/${post.postId}` } });
  }),
  { docId: generatePost.id },
);
