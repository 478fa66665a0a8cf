import { withApi } from "@/lib/api/handler";
import { readJson, readParams } from "@/lib/api/read-request";
import { withAuth } from "@/lib/api/with-auth";
import {
  markPublicationPostedBody,
  markPublicationPosted as operation,
  publicationParams,
} from "@/lib/contracts/publishing";
import { markPublicationPosted } from "@/lib/publishing/resolve-outcome";

export const dynamic = "force-dynamic";

export const POST = withApi(
  withAuth(async (req, { principal, params }) => {
    const { publicationId } = readParams(params, publicationParams);
    const input = await readJson(req, markPublicationPostedBody);
    return Response.json(await markPublicationPosted({ principal, publicationId, input }));
  }),
  { docId: operation.id },
);
