import { withApi } from "@/lib/api/handler";
import { readJson, readParams } from "@/lib/api/read-request";
import { withAuth } from "@/lib/api/with-auth";
import {
  cancelPublication,
  getPublication,
  publicationParams,
  reschedulePublication,
  reschedulePublicationBody,
} from "@/lib/contracts/publishing";
import { cancelPublication as cancel, getPublication as get } from "@/lib/publishing/publications";
import { reschedulePublication as reschedule } from "@/lib/publishing/reschedule-publication";

export const dynamic = "force-dynamic";

export const GET = withApi(
  withAuth(async (_req, { principal, params }) => {
    const { publicationId } = readParams(params, publicationParams);
    return Response.json(await get({ principal, publicationId }), {
      headers: { "Cache-Control": "no-store" },
    });
  }),
  { docId: getPublication.id },
);

export const PATCH = withApi(
  withAuth(async (req, { principal, params }) => {
    const { publicationId } = readParams(params, publicationParams);
    const input = await readJson(req, reschedulePublicationBody);
    return Response.json(await reschedule({ principal, publicationId, input }), {
      headers: { "Cache-Control": "no-store" },
    });
  }),
  { docId: reschedulePublication.id },
);

export const DELETE = withApi(
  withAuth(async (_req, { principal, params }) => {
    const { publicationId } = readParams(params, publicationParams);
    return Response.json(await cancel({ principal, publicationId }), {
      headers: { "Cache-Control": "no-store" },
    });
  }),
  { docId: cancelPublication.id },
);
