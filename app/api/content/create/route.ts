import { withApi } from "@/lib/api/handler";
import { withIdempotency } from "@/lib/api/idempotency";
import { enforceRateLimit, rateLimitSubject } from "@/lib/api/rate-limit";
import { readJson } from "@/lib/api/read-request";
import { withAuth } from "@/lib/api/with-auth";
import { getBrandForPrincipal } from "@/lib/brands/get-brand";
import { generatePost, generatePostBody } from "@/lib/contracts/posts";
import { generatePostDraft } from "@/lib/posts/generate-post-draft";

export const dynamic = "force-dynamic";

export const POST = withApi(
  withAuth(async (req, { principal, requestId }) => {
    const input = await readJson(req, generatePostBody);
    const subject = rateLimitSubject(principal);
    return withIdempotency({
      req,
      subject,
      operation: generatePost.id,
      body: input,
      // Inside execute: a replay of an Idempotency-Key does not count against the rate limit.
      execute: async () => {
        // The brand is read while the request is counted; a rate limit still wins over a missing brand.
        const [limit, found] = await Promise.allSettled([
          enforceRateLimit({ bucket: "generate", subject }),
          getBrandForPrincipal({ principal, brandId: input.brandId, permission: "post.create", cached: true }),
        ]);
        if (limit.status === "rejected") throw limit.reason;
        if (found.status === "rejected") throw found.reason;
        const [limitHeaders, brand] = [limit.value, found.value];
        const post = await generatePostDraft({ principal, brand, input, requestId });
        return Response.json(post, {
          status: 201,
          headers: { Location: `/api/posts/${post.postId}`, ...limitHeaders },
        });
      },
    });
  }),
  { docId: generatePost.id },
);
