import { withApi } from "@/lib/api/handler";
import { readJson, readParams } from "@/lib/api/read-request";
import { withAuth } from "@/lib/api/with-auth";
import {
  createPublication,
  createPublicationBody,
  createPublicationParams,
} from "@/lib/contracts/publishing";
import { createPublication as create } from "@/lib/publishing/create-publication";

export const dynamic = "force-dynamic";

export const POST = withApi(
  withAuth(async (req, { principal, params }) => {
    const { postId } = readParams(params, createPublicationParams);
    const input = await readJson(req, createPublicationBody);
    const created = await create({ principal, postId, input });
    return Response.json(created, {
      status: 202,
      headers: { Location: `/api/publications/${created.publicationId}`, "Cache-Control": "no-store" },
    });
  }),
  { docId: createPublication.id },
);
