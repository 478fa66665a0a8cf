import { withApi } from "@/lib/api/handler";
import { readQuery } from "@/lib/api/read-request";
import { withAuth } from "@/lib/api/with-auth";
import { listPosts, listPostsQuery } from "@/lib/contracts/posts";
import { listBrandPosts } from "@/lib/posts/list-brand-posts";

export const dynamic = "force-dynamic";

export const GET = withApi(
  withAuth(async (req, { principal }) => {
    const query = readQuery(req, listPostsQuery);
    const page = await listBrandPosts({ principal, ...query });
    return Response.json(page, { headers: { "Cache-Control": "no-store" } });
  }),
  { docId: listPosts.id },
);
