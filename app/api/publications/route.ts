import { withApi } from "@/lib/api/handler";
import { readQuery } from "@/lib/api/read-request";
import { withAuth } from "@/lib/api/with-auth";
import { listPublications, listPublicationsQuery } from "@/lib/contracts/publishing";
import { listPublications as list } from "@/lib/publishing/publications";

export const dynamic = "force-dynamic";

export const GET = withApi(
  withAuth(async (req, { principal }) => {
    const query = readQuery(req, listPublicationsQuery);
    return Response.json(await list({ principal, query }), { headers: { "Cache-Control": "no-store" } });
  }),
  { docId: listPublications.id },
);
