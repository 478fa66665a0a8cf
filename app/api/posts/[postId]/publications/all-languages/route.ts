import { withApi } from "@/lib/api/handler";
import { readJson, readParams } from "@/lib/api/read-request";
import { withAuth } from "@/lib/api/with-auth";
import { publishAllLanguages, publishAllLanguagesBody } from "@/lib/contracts/post-groups";
import { createPublicationParams } from "@/lib/contracts/publishing";
import { publishAllLanguages as publishAll } from "@/lib/publishing/publish-all-languages";

export const dynamic = "force-dynamic";

export const POST = withApi(
  withAuth(async (req, { principal, params }) => {
    const { postId } = readParams(params, createPublicationParams);
    const input = await readJson(req, publishAllLanguagesBody);
    const result = await publishAll({ principal, postId, input });
    return Response.json(result, { status: 202, headers: { "Cache-Control": "no-store" } });
  }),
  { docId: publishAllLanguages.id },
);
