import { withApi } from "@/lib/api/handler";
import { getBrandForPrincipal } from "@/lib/brands/get-brand";
import { generatePost } from "@/lib/contracts/posts";
import { generatePostDraft } from "@/lib/posts/generate-post-draft";

export const dynamic = "force-dynamic";

// The rate limit runs before the brand is read: a rate limit still wins over a missing brand.
export const POST = withApi(
  generatePost,
  async ({ principal, body: input, requestId, limitHeaders }) => {
    const permission = "post.create";
    const brand = await getBrandForPrincipal({ principal, brandId: input.brandId, permission, cached: true });
    const post = await generatePostDraft({ principal, brand, input, requestId });
    return Response.json(post, { status: 201, headers: { Location: `/api/posts/${post.postId}`, ...limitHeaders } });
  },
  { limit: "generate", idempotent: true },
);
